import { Injectable } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import { createHash, randomBytes } from 'node:crypto';
import { ACCOUNT_COOKIE_PATH } from '@contracts/account';
import { AccessConfig } from '@core/config/config-sections';
import { AccountAccessRepository } from '@core/database/repositories/account-access.repository';

export const ACCOUNT_SESSION_COOKIE = 'account_session';

/** A live account session, as the guard attaches it to the request. */
export interface AccountPrincipal {
  emailNormalized: string;
  csrfToken: string;
  expiresAt: Date;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The session's synchronizer token: derived from the secret id, worthless without the httpOnly cookie. */
const csrfTokenOf = (sessionId: string): string => createHash('sha256').update(`account-csrf:${sessionId}`).digest('base64url');

/**
 * Buyers' account sessions, opened by a sign-in link. The browser holds a random 256-bit id in
 * an httpOnly cookie sent to /api/account only (SameSite=Lax: the link is followed from a mail
 * client, a cross-site navigation); Postgres holds its SHA-256, the buyer's address and a fixed
 * expiry. Mutations also need the CSRF token (see AccountGuard).
 */
@Injectable()
export class AccountSessionService {
  constructor(
    private readonly access: AccountAccessRepository,
    private readonly config: AccessConfig,
  ) {}

  async create(emailNormalized: string): Promise<{ cookie: string; principal: AccountPrincipal }> {
    const sessionId = randomBytes(32).toString('base64url');
    const ttlMs = this.config.ACCOUNT_SESSION_TTL_HOURS * 3_600_000;
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.access.insertSession({ id_hash: sha256(sessionId), email_normalized: emailNormalized, expires_at: expiresAt });
    return {
      cookie: this.cookie(sessionId, Math.floor(ttlMs / 1000)),
      principal: { emailNormalized, csrfToken: csrfTokenOf(sessionId), expiresAt },
    };
  }

  /** The live session the Cookie header names, or null. */
  async authenticate(cookieHeader: string | undefined): Promise<AccountPrincipal | null> {
    const sessionId = cookieHeader ? parseCookie(cookieHeader)[ACCOUNT_SESSION_COOKIE] : undefined;
    if (!sessionId || sessionId.length > 100) return null;
    const row = await this.access.findLiveSession(sha256(sessionId));
    return row ? { emailNormalized: row.email_normalized, csrfToken: csrfTokenOf(sessionId), expiresAt: row.expires_at } : null;
  }

  async destroy(cookieHeader: string | undefined): Promise<void> {
    const sessionId = cookieHeader ? parseCookie(cookieHeader)[ACCOUNT_SESSION_COOKIE] : undefined;
    if (sessionId && sessionId.length <= 100) await this.access.deleteSession(sha256(sessionId));
  }

  clearedCookie(): string {
    return this.cookie('', 0);
  }

  private cookie(value: string, maxAge: number): string {
    return stringifySetCookie(ACCOUNT_SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      path: ACCOUNT_COOKIE_PATH,
      maxAge,
      secure: this.config.secureCookies,
    });
  }
}
