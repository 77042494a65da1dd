import Stripe from 'stripe';
import { WebhookRefusedError } from '../../payment-gateway';
import { stripeSignatureFor, verifyStripeWebhook } from './stripe-webhooks';

const SECRET = 'whsec_unitspecsecret000000';
const event = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1' } } });
const refusal = (body: string | undefined, signature: string | undefined): string => {
  try {
    verifyStripeWebhook(body === undefined ? undefined : Buffer.from(body), signature, SECRET);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookRefusedError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('verifyStripeWebhook', () => {
  it('reads an event signed with the secret, as it was sent', () => {
    expect(verifyStripeWebhook(Buffer.from(event), stripeSignatureFor(event, SECRET), SECRET)).toEqual(JSON.parse(event));
  });

  it('signs as Stripe does', () => {
    expect(() => Stripe.webhooks.constructEvent(event, stripeSignatureFor(event, SECRET), SECRET)).not.toThrow();
  });

  it('refuses what is missing, signed with another secret, too old or not an event, with readable reasons', () => {
    expect(refusal(event, undefined)).toBe('Missing Stripe-Signature header.');
    expect(refusal('', stripeSignatureFor('', SECRET))).toBe('The webhook body is empty.');
    expect(refusal(event, stripeSignatureFor(event, 'whsec_someoneelse00000000000000'))).toBe('Webhook signature does not match.');
    const old = Math.floor(Date.now() / 1000) - 301;
    expect(refusal(event, Stripe.webhooks.generateTestHeaderString({ payload: event, secret: SECRET, timestamp: old }))).toBe(
      'Webhook timestamp is more than 300 seconds old.',
    );
    expect(refusal('{not json', stripeSignatureFor('{not json', SECRET))).toBe('The webhook body is not valid JSON.');
    const notAnEvent = JSON.stringify({ type: 'payment_intent.succeeded' });
    expect(refusal(notAnEvent, stripeSignatureFor(notAnEvent, SECRET))).toBe('The webhook body is not a Stripe event.');
  });
});
