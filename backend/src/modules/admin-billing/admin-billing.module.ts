import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { BillingController } from './billing.controller';
import { RefundsService } from './refunds.service';

/** The admin's orders screen: orders with their payments and refunds, and refunding a payment through the gateway. */
@Module({
  imports: [AdminAccessModule, PaymentGatewayModule],
  controllers: [BillingController],
  providers: [RefundsService],
})
export class AdminBillingModule {}
