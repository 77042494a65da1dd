import { Module } from '@nestjs/common';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { AccountController } from './account.controller';
import { AccountGuard } from './account.guard';
import { accountLinkLimiter } from './account-link-limiter';
import { AccountService } from './account.service';
import { AccountSessionService } from './account-session.service';

/** The buyer's self-service account page's API: sign-in links, sessions, memberships and their changes. */
@Module({
  imports: [PaymentGatewayModule],
  controllers: [AccountController],
  providers: [AccountService, AccountSessionService, AccountGuard, accountLinkLimiter],
})
export class AccountModule {}
