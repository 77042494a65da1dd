import { Injectable } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AccessConfig } from '@core/config/config-sections';
import { AdminAccountRepository } from '@core/database/repositories/admin-account.repository';

export const ADMIN_SESSION_COOKIE = 'admin_session';

/** A valid session, as the guard attaches it to the request. */
export interface AdminPrincipal {
  adminId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The synchronizer token of a session: derived from the secret session id, so it needs no column,
 * is worthless without the httpOnly cookie, and reveals nothing about the id.
 */
const csrfTokenOf = (sessionId: string): string => createHash('sha256').update(`csrf:${sessionId}`).digest('base64url');

/**
 * Server-side admin sessions. The browser holds a random 256-bit id in an httpOnly,
 * SameSite=Strict cookie; Postgres holds its SHA-256, the admin and a fixed expiry.
 */
@Injectable()
export class AdminSessionService {
  constructor(
    private readonly accounts: AdminAccountRepository,
    private readonly config: AccessConfig,
  ) {}

  async create(adminId: string, email: string): Promise<{ cookie: string; principal: AdminPrincipal }> {
    const sessionId = randomBytes(32).toString('base64url');
    const ttlMs = this.config.ADMIN_SESSION_TTL_HOURS * 3_600_000;
    const expiresAt = new Date(Date.now() + ttlMs);
    // Every admin's expired rows go with each sign-in rather than in a scheduled job: sign-ins are rare.
    await this.accounts.insertSession({ id_hash: sha256(sessionId), admin_id: adminId, expires_at: expiresAt });
    return {
      cookie: this.cookie(sessionId, Math.floor(ttlMs / 1000)),
      principal: { adminId, email, csrfToken: csrfTokenOf(sessionId), expiresAt },
    };
  }

  /**
   * The session a request's Cookie header names, or null when there is none, it is unknown or
   * it has expired. Usable outside Nest controllers too (a Fastify hook in front of a dashboard).
   */
  async authenticate(cookieHeader: string | undefined): Promise<AdminPrincipal | null> {
    const sessionId = cookieHeader ? parseCookie(cookieHeader)[ADMIN_SESSION_COOKIE] : undefined;
    if (!sessionId || sessionId.length > 100) return null;
    const row = await this.accounts.findLiveSession(sha256(sessionId));
    return row ? { adminId: row.admin_id, email: row.email, csrfToken: csrfTokenOf(sessionId), expiresAt: row.expires_at } : null;
  }

  async destroy(cookieHeader: string | undefined): Promise<void> {
    const sessionId = cookieHeader ? parseCookie(cookieHeader)[ADMIN_SESSION_COOKIE] : undefined;
    if (sessionId) await this.accounts.deleteSession(sha256(sessionId));
  }

  /** The Set-Cookie value that removes the session cookie from the browser. */
  clearedCookie(): string {
    return this.cookie('', 0);
  }

  private cookie(value: string, maxAge: number): string {
    return stringifySetCookie(ADMIN_SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge,
      // Plain http (`npm start`, a trial on localhost) would never get a Secure cookie back.
      secure: this.config.secureCookies,
    });
  }
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfTokenMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
