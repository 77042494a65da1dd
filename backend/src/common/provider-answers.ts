import { BadRequestException, ConflictException, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import {
  PaymentNotFoundError,
  PaymentRefusedError,
  PaymentUnsupportedError,
  WebhookRefusedError,
} from '@core/payments/payment-gateway';

/** The 503's words for a buyer whose payment call the provider did not answer. */
export const PROVIDER_DOWN = 'The payment service is not answering right now. Please try again in a minute.';

/** How one request answers what its call to the payment provider threw. */
export interface ProviderAnswers {
  /**
   * The status of a refusal the person can act on (a declined card, a refund above what is left,
   * something this provider does not offer, a webhook that is not signed), answered with the
   * provider's own words: 400 where the request is refused, 409 where the state it acts on is.
   */
  refused: 400 | 409;
  /** Runs before a refusal is answered: what the request held for the call is let go. */
  onRefused?: () => Promise<unknown>;
  /**
   * Any other failure is the provider away: logged with `log` (ids only, never personal data)
   * and answered 503 with `message`, which says what to do. Absent, the error goes on to the
   * exception filter as it is (a 500, or the database's 503).
   */
  unavailable?: { logger: Logger; log: Record<string, unknown>; message: string };
}

/**
 * Runs one call to the payment provider (a webhook's parsing is synchronous) and turns what it
 * throws into the request's answer: the one path from the gateway's neutral errors
 * (payment-gateway.ts) to HTTP, for checkout, one-click, /account, refunds, webhooks and the
 * sandbox's own routes.
 */
export async function answerProviderErrors<T>(call: () => Promise<T> | T, answers: ProviderAnswers): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw await answerOf(err, answers);
  }
}

async function answerOf(err: unknown, answers: ProviderAnswers): Promise<unknown> {
  if (err instanceof PaymentNotFoundError) return new NotFoundException(err.message);
  if (err instanceof PaymentRefusedError || err instanceof PaymentUnsupportedError || err instanceof WebhookRefusedError) {
    await answers.onRefused?.();
    return answers.refused === 409 ? new ConflictException(err.message) : new BadRequestException(err.message);
  }
  const { unavailable } = answers;
  if (!unavailable) return err;
  unavailable.logger.error({ ...unavailable.log, err: (err as Error).message }, 'Payment provider call failed');
  return new ServiceUnavailableException(unavailable.message);
}
