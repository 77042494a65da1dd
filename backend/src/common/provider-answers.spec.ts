import { HttpException, Logger } from '@nestjs/common';
import {
  PaymentNotFoundError,
  PaymentRefusedError,
  PaymentUnsupportedError,
  WebhookRefusedError,
} from '@core/payments/payment-gateway';
import { answerProviderErrors, PROVIDER_DOWN, type ProviderAnswers } from './provider-answers';

/** What the call's rejection became: its status and message, or the error itself when it is not an HTTP answer. */
async function answerTo(err: Error, answers: ProviderAnswers): Promise<unknown> {
  const thrown: unknown = await answerProviderErrors(() => Promise.reject(err), answers).catch((e: unknown) => e);
  return thrown instanceof HttpException ? { status: thrown.getStatus(), message: thrown.message } : thrown;
}

describe('answerProviderErrors', () => {
  it('answers with what the call resolves to', async () => {
    await expect(answerProviderErrors(() => Promise.resolve(42), { refused: 400 })).resolves.toBe(42);
  });

  it("answers a refusal with the request's refusal status and the provider's words", async () => {
    for (const refusal of [
      new PaymentRefusedError('Your card was declined.'),
      new PaymentUnsupportedError('No billing portal here.'),
      new WebhookRefusedError('Webhook signature does not match.'),
    ]) {
      expect(await answerTo(refusal, { refused: 400 })).toEqual({ status: 400, message: refusal.message });
      expect(await answerTo(refusal, { refused: 409 })).toEqual({ status: 409, message: refusal.message });
    }
  });

  it('answers an object the provider does not hold with a 404', async () => {
    expect(await answerTo(new PaymentNotFoundError('No dispute has this id.'), { refused: 409 })).toEqual({
      status: 404,
      message: 'No dispute has this id.',
    });
  });

  it('lets go of what the request held before a refusal is answered, and only then', async () => {
    const released: string[] = [];
    const onRefused = () => Promise.resolve(released.push('claim'));
    await answerTo(new PaymentRefusedError('no'), { refused: 400, onRefused });
    await answerTo(new Error('socket hang up'), { refused: 400, onRefused });
    expect(released).toEqual(['claim']);
  });

  it('answers any other failure 503 with its message, logging ids and the error, never the request', async () => {
    const logger = new Logger('spec');
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const unavailable = { logger, log: { orderId: 'o-1', operation: 'create-subscription' }, message: PROVIDER_DOWN };
    expect(await answerTo(new Error('socket hang up'), { refused: 400, unavailable })).toEqual({ status: 503, message: PROVIDER_DOWN });
    expect(error).toHaveBeenCalledWith({ orderId: 'o-1', operation: 'create-subscription', err: 'socket hang up' }, 'Payment provider call failed');
  });

  it('leaves any other failure to the exception filter when the request names no 503', async () => {
    const failure = new Error('socket hang up');
    expect(await answerTo(failure, { refused: 409 })).toBe(failure);
  });
});
