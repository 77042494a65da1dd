import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { BillingController } from './billing.controller';
import { InstalmentStopsService } from './instalment-stops.service';
import { RefundsService } from './refunds.service';

/**
 * The admin's orders screen: orders with their payments and refunds, refunding a payment through
 * the gateway, and stopping an instalment plan.
 */
@Module({
  imports: [AdminAccessModule, PaymentGatewayModule],
  controllers: [BillingController],
  providers: [RefundsService, InstalmentStopsService],
})
export class AdminBillingModule {}
