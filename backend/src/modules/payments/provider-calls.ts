import { HttpException, Logger, ServiceUnavailableException } from '@nestjs/common';
import { PaymentRefusedError } from '@core/payments/payment-gateway';

const PROVIDER_DOWN = 'The payment service is not answering right now. Please try again in a minute.';

/**
 * A checkout request's calls to the payment provider: a refusal the buyer can act on (a declined
 * card, an unusable saved card) becomes the answer `refused` makes of its message; anything else
 * is logged with the order id and the operation only, and answered 503 with a readable message.
 */
export class ProviderCalls {
  constructor(
    private readonly logger: Logger,
    private readonly refused: (message: string) => HttpException,
  ) {}

  async run<T>(operation: string, orderId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof PaymentRefusedError) throw this.refused(err.message);
      this.logger.error({ orderId, operation, err: (err as Error).message }, 'Payment provider call failed');
      throw new ServiceUnavailableException(PROVIDER_DOWN);
    }
  }
}
