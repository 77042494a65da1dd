import { Injectable, UnauthorizedException } from '@nestjs/common';
import { ADMIN_LOGIN_FAILED_MESSAGE, AdminSessionResponse } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { PaymentsConfig } from '@core/config/config-sections';
import { AdminAccountRepository } from '@core/database/repositories/admin-account.repository';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { AdminPrincipal, AdminSessionService } from '../../common/admin-access/admin-session.service';
import { LoginRateLimiter } from './login-rate-limiter';
import { dummyPasswordHash, verifyPassword } from './password-hasher';

@Injectable()
export class AdminAuthService {
  constructor(
    private readonly accounts: AdminAccountRepository,
    private readonly sessions: AdminSessionService,
    private readonly audit: AuditRepository,
    private readonly limiter: LoginRateLimiter,
    private readonly config: PaymentsConfig,
  ) {}

  /** What the admin screens learn about their session, and which provider takes payments (the sandbox's screens show only with it). */
  sessionResponse(admin: AdminPrincipal): AdminSessionResponse {
    return {
      email: admin.email,
      csrfToken: admin.csrfToken,
      expiresAt: admin.expiresAt.toISOString(),
      paymentProvider: this.config.paymentProvider(),
    };
  }

  /**
   * Checks the password and opens a session. A wrong password and an unknown address take the
   * same work (an argon2 verification either way) and get the same answer.
   */
  async login(email: string, password: string, clientIp: string): Promise<{ cookie: string; session: AdminSessionResponse }> {
    const emailNormalized = normalizeEmail(email);
    await this.limiter.consume(clientIp, emailNormalized);
    const account = await this.accounts.findByEmail(emailNormalized);
    const valid = await verifyPassword(account?.password_hash ?? (await dummyPasswordHash()), password);
    if (!account || !valid) {
      await this.limiter.failed(emailNormalized);
      await this.audit.record({ adminId: account?.id ?? null, action: 'sign-in.failed', clientIp });
      throw new UnauthorizedException(ADMIN_LOGIN_FAILED_MESSAGE);
    }
    await this.limiter.succeeded(emailNormalized);
    const { cookie, principal } = await this.sessions.create(account.id, account.email);
    await this.accounts.recordLogin(account.id);
    await this.audit.record({ adminId: account.id, action: 'sign-in', clientIp });
    return { cookie, session: this.sessionResponse(principal) };
  }

  async logout(admin: AdminPrincipal, cookieHeader: string | undefined, clientIp: string): Promise<string> {
    await this.sessions.destroy(cookieHeader);
    await this.audit.record({ adminId: admin.adminId, action: 'sign-out', clientIp });
    return this.sessions.clearedCookie();
  }
}
