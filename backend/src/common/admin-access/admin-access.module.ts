import { Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';
import { AdminSessionService } from './admin-session.service';
import { AuditService } from './audit.service';

/**
 * Who is signed in as an admin, shared by every feature with admin routes: @AdminOnly() routes
 * (AdminGuard), AdminSessionService (to check a session outside a controller) and AuditService
 * (to record an admin action). Signing in and out is the admin feature's own business.
 */
@Module({
  providers: [AdminSessionService, AdminGuard, AuditService],
  exports: [AdminSessionService, AdminGuard, AuditService],
})
export class AdminAccessModule {}
