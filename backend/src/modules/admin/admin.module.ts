import { Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthService } from './admin-auth.service';
import { AdminSessionService } from './admin-session.service';
import { AuditService } from './audit.service';
import { LoginRateLimiter } from './login-rate-limiter';

/**
 * Admin sign-in. Import it for @AdminOnly() routes (AdminGuard), AdminSessionService (to check a
 * session outside a controller) and AuditService (to record an admin action).
 */
@Module({
  controllers: [AdminAuthController],
  providers: [AdminAuthService, AdminSessionService, AdminGuard, AuditService, LoginRateLimiter],
  exports: [AdminSessionService, AdminGuard, AuditService],
})
export class AdminModule {}
