import { Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';
import { AdminSessionService } from './admin-session.service';

/**
 * Who is signed in as an admin, shared by every feature with admin routes: @AdminOnly() routes
 * (AdminGuard) and AdminSessionService (to check a session outside a controller). An admin
 * action is recorded with AuditRepository. Signing in and out is the admin feature's own business.
 */
@Module({
  providers: [AdminSessionService, AdminGuard],
  exports: [AdminSessionService, AdminGuard],
})
export class AdminAccessModule {}
