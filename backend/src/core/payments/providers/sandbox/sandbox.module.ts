import { Module } from '@nestjs/common';
import { PaymentGatewayModule } from '../../payment-gateway.module';
import { SandboxClockService } from './sandbox-clock.service';
import { SandboxConfirmService } from './sandbox-confirm.service';
import { SandboxDisputesService } from './sandbox-disputes.service';

/**
 * The sandbox's stand-ins for Stripe.js and the bank (card confirmation, authentication) and its
 * owner levers (clock, dispute evidence), on the records of the gateway module's SandboxStore.
 * No controllers: the API's routes for them are modules/payments/sandbox/sandbox.controller.ts,
 * since only the API serves HTTP and the worker imports the gateway module too.
 */
@Module({
  imports: [PaymentGatewayModule],
  providers: [SandboxConfirmService, SandboxClockService, SandboxDisputesService],
  exports: [SandboxConfirmService, SandboxClockService, SandboxDisputesService],
})
export class SandboxModule {}
