import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthService } from './admin-auth.service';
import { LoginRateLimiter } from './login-rate-limiter';

/** Admin sign-in and sign-out; the session, guard and audit it relies on come from AdminAccessModule. */
@Module({
  imports: [AdminAccessModule],
  controllers: [AdminAuthController],
  providers: [AdminAuthService, LoginRateLimiter],
})
export class AdminModule {}
