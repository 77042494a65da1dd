import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { ForgetCustomerPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type ForgetCustomerOutcome = 'deleted' | 'already deleted' | 'already forgotten';

/**
 * Deletes an erased person's customer at the payment provider (owed by the erasure), once,
 * through the side-effect ledger under `forget-customer:<customer id>`: a retried or redelivered
 * job finds the finished entry and calls nobody.
 */
@Injectable()
export class ForgetCustomerHandler {
  private readonly logger = new Logger(ForgetCustomerHandler.name);

  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly ledger: ProviderCallLedger,
  ) {}

  @OnJob(JOBS.forgetCustomer)
  async forget({ provider, customerId }: ForgetCustomerPayload): Promise<ForgetCustomerOutcome> {
    // Only that provider knows the customer: a worker configured for another fails the job
    // (kept as failed in the outbox, to retry once configured) instead of pretending.
    if (provider !== this.gateway.provider) {
      throw new UnrecoverableError(`The customer is at ${provider}, but this worker's payment provider is ${this.gateway.provider}`);
    }
    const effect = await this.ledger.run(SIDE_EFFECTS.forgetCustomer, customerId, async () => {
      const result = await this.gateway.forgetCustomer(customerId);
      return { outcome: result === 'deleted' ? 'done' : 'duplicate', detail: { provider, result } };
    });
    const outcome: ForgetCustomerOutcome = effect.replayed
      ? 'already forgotten'
      : effect.detail.result === 'deleted'
        ? 'deleted'
        : 'already deleted';
    this.logger.log({ provider, customerId, outcome }, 'Provider customer forgotten');
    return outcome;
  }
}
