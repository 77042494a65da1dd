import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Stripe from 'stripe';
import { STRIPE_API_VERSION } from './stripe-client';
import { otherApiVersionOf, STRIPE_WEBHOOK_EVENTS, stripeEventOf, stripeSubjectOf } from './stripe-events';

const ORDER = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';

/**
 * An invoice as API versions up to 2025-02-24.acacia shape it: stripe-node 23's types no longer
 * have these fields, so they are kept here.
 */
interface AcaciaInvoice {
  id: string;
  object: 'invoice';
  subscription: string | { id: string } | null;
  subscription_details: { metadata: Record<string, string> | null } | null;
  payment_intent: string | null;
}

/** An invoice of subscription `subscription` as the pinned version shapes it (stripe-node 23's Invoice). */
const currentInvoice = (subscription: string | { id: string }, metadata: Record<string, string> | null) =>
  ({
    id: 'in_1',
    object: 'invoice',
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscription as string | Stripe.Subscription, metadata },
    },
  }) satisfies Partial<Stripe.Invoice>;

describe('stripeSubjectOf', () => {
  it('names the intent or subscription an event is about, with the order id from its metadata', () => {
    expect(stripeSubjectOf('payment_intent.succeeded', { id: 'pi_1', metadata: { order_id: ORDER } })).toEqual({
      object: 'charge',
      objectId: 'pi_1',
      orderRef: ORDER,
    });
    expect(stripeSubjectOf('setup_intent.setup_failed', { id: 'seti_1', metadata: {} })).toEqual({
      object: 'setup',
      objectId: 'seti_1',
      orderRef: undefined,
    });
    expect(stripeSubjectOf('customer.subscription.updated', { id: 'sub_1', metadata: { order_id: ORDER } })).toEqual({
      object: 'subscription',
      objectId: 'sub_1',
      orderRef: ORDER,
    });
  });

  it('reads a current invoice through parent.subscription_details, the subscription an id or expanded, naming the invoice', () => {
    expect(stripeSubjectOf('invoice.paid', currentInvoice('sub_2', { order_id: ORDER }))).toEqual({
      object: 'subscription',
      objectId: 'sub_2',
      orderRef: ORDER,
      invoiceId: 'in_1',
    });
    expect(stripeSubjectOf('invoice.payment_failed', currentInvoice({ id: 'sub_3' }, null))).toEqual({
      object: 'subscription',
      objectId: 'sub_3',
      orderRef: undefined,
      invoiceId: 'in_1',
    });
  });

  it('reads an acacia invoice through its own subscription field, the subscription an id or expanded', () => {
    const acacia = (subscription: AcaciaInvoice['subscription'], metadata: Record<string, string> | null): AcaciaInvoice => ({
      id: 'in_1',
      object: 'invoice',
      subscription,
      subscription_details: { metadata },
      payment_intent: 'pi_1',
    });
    expect(stripeSubjectOf('invoice.paid', { ...acacia('sub_2', { order_id: ORDER }) })).toEqual({
      object: 'subscription',
      objectId: 'sub_2',
      orderRef: ORDER,
      invoiceId: 'in_1',
    });
    expect(stripeSubjectOf('invoice.payment_failed', { ...acacia({ id: 'sub_3' }, null) })).toEqual({
      object: 'subscription',
      objectId: 'sub_3',
      orderRef: undefined,
      invoiceId: 'in_1',
    });
    // An invoice of no subscription (a one-off invoice) in either shape is about nothing an order holds.
    expect(stripeSubjectOf('invoice.paid', { ...acacia(null, null) })).toBeNull();
    expect(stripeSubjectOf('invoice.paid', { id: 'in_1', object: 'invoice', parent: null })).toBeNull();
  });

  it('names the refund, refunded charge or dispute of a refund or dispute event, with the payment intent it is about', () => {
    expect(stripeSubjectOf('charge.refunded', { id: 'ch_1', payment_intent: 'pi_1', metadata: { order_id: ORDER } })).toEqual({
      object: 'charge',
      objectId: 'pi_1',
      orderRef: ORDER,
      after: { object: 'payment', id: 'ch_1' },
    });
    expect(stripeSubjectOf('refund.updated', { id: 're_1', payment_intent: 'pi_1' })).toMatchObject({
      after: { object: 'refund', id: 're_1' },
    });
    expect(stripeSubjectOf('charge.dispute.closed', { id: 'dp_1', charge: 'ch_1' })).toEqual({
      object: 'charge',
      objectId: 'dp_1',
      orderRef: undefined,
      after: { object: 'dispute', id: 'dp_1' },
    });
    expect(stripeEventOf({ id: 'evt_1', type: 'refund.created', data: { object: { id: 're_1' } } })?.kind).toBe('refund.created');
    expect(stripeEventOf({ id: 'evt_2', type: 'charge.refunded', data: { object: { id: 'ch_1' } } })?.kind).toBe('payment.refunded');
    expect(stripeEventOf({ id: 'evt_3', type: 'charge.dispute.created', data: { object: { id: 'dp_1' } } })?.kind).toBe('dispute.created');
  });

  it('ignores events about other objects and order ids that are not ours', () => {
    expect(stripeSubjectOf('charge.captured', { id: 'ch_1' })).toBeNull();
    expect(stripeSubjectOf('invoice.finalized', { id: 'in_1', subscription: 'sub_2' })).toBeNull();
    expect(
      stripeSubjectOf('payment_intent.succeeded', { id: 'pi_1', metadata: { order_id: "1'; DROP TABLE orders" } })?.orderRef,
    ).toBeUndefined();
  });
});

describe('stripeEventOf', () => {
  const record = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    id: 'evt_1',
    type,
    data: { object },
    ...extra,
  });

  it('names what happened in neutral words, with the event id and time', () => {
    expect(
      stripeEventOf(record('payment_intent.succeeded', { id: 'pi_1', metadata: { order_id: ORDER } }, { created: 1_700_000_000 })),
    ).toEqual({
      kind: 'charge.succeeded',
      providerEventId: 'evt_1',
      object: 'charge',
      objectId: 'pi_1',
      orderRef: ORDER,
      occurredAt: new Date(1_700_000_000_000),
    });
    expect(stripeEventOf(record('payment_intent.payment_failed', { id: 'pi_1' }))).toMatchObject({
      kind: 'charge.failed',
      occurredAt: null,
    });
    expect(stripeEventOf(record('setup_intent.setup_failed', { id: 'seti_1' }))?.kind).toBe('setup.failed');
    expect(stripeEventOf(record('customer.subscription.deleted', { id: 'sub_1' }))?.kind).toBe('subscription.canceled');
    expect(stripeEventOf(record('invoice.paid', { id: 'in_1', subscription: 'sub_1' }))?.kind).toBe('subscription.paid');
  });

  it('calls any other event of an order object an update, and ignores the rest', () => {
    expect(stripeEventOf(record('payment_intent.amount_capturable_updated', { id: 'pi_1' }))?.kind).toBe('charge.updated');
    expect(stripeEventOf(record('customer.subscription.paused', { id: 'sub_1' }))?.kind).toBe('subscription.updated');
    expect(stripeEventOf(record('charge.captured', { id: 'ch_1' }))).toBeNull();
    expect(stripeEventOf({ id: 'evt_1', type: 'payment_intent.succeeded', data: null })).toBeNull();
    expect(stripeEventOf({ id: 'evt_1', type: 'payment_intent.succeeded' })).toBeNull();
  });

  it("gives a decline its reason in the gateway's words, from the intent's last error", () => {
    const failed = (type: string, object: Record<string, unknown>) => stripeEventOf(record(type, { id: 'pi_1', ...object }))?.declineReason;
    expect(failed('payment_intent.payment_failed', { last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' } })).toBe(
      'insufficient_funds',
    );
    expect(failed('payment_intent.payment_failed', { last_payment_error: { code: 'payment_intent_authentication_failure' } })).toBe(
      'payment_intent_authentication_failure',
    );
    expect(failed('setup_intent.setup_failed', { last_setup_error: { code: 'card_declined', decline_code: 'generic_decline' } })).toBe(
      'generic_decline',
    );
    // A reason outside the few labels, or none at all: 'other'.
    expect(failed('payment_intent.payment_failed', { last_payment_error: { decline_code: 'pickup_card' } })).toBe('other');
    expect(failed('payment_intent.payment_failed', {})).toBe('other');
    // Only an intent's declines carry one: an invoice names no reason.
    expect(stripeEventOf(record('invoice.payment_failed', { id: 'in_1', subscription: 'sub_1' }))?.declineReason).toBeUndefined();
    expect(failed('payment_intent.succeeded', { last_payment_error: { decline_code: 'generic_decline' } })).toBeUndefined();
  });
});

describe('otherApiVersionOf', () => {
  const record = (api_version?: unknown) => ({ id: 'evt_1', type: 'invoice.paid', ...(api_version !== undefined && { api_version }) });

  it('names the API version of an event written in another one than the pinned, and nothing for the pinned or none', () => {
    expect(otherApiVersionOf(record('2025-02-24.acacia'))).toBe('2025-02-24.acacia');
    expect(otherApiVersionOf(record('2027-04-28.fig'))).toBe('2027-04-28.fig');
    expect(otherApiVersionOf(record(STRIPE_API_VERSION))).toBeNull();
    expect(otherApiVersionOf(record())).toBeNull();
    expect(otherApiVersionOf(record(null))).toBeNull();
  });

  it('keeps a version that is not named like one out of the labels', () => {
    expect(otherApiVersionOf(record('<script>'))).toBe('unrecognised');
    expect(otherApiVersionOf(record('2025-02-24.acacia; x'))).toBe('unrecognised');
  });
});

describe('STRIPE_WEBHOOK_EVENTS', () => {
  it("is the list README's going-live step prints, in its order", () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', '..', '..', '..', 'README.md'), 'utf8');
    const listed = /is updated to exactly these events:([\s\S]*?)\.\n/.exec(readme)?.[1] ?? '';
    expect([...listed.matchAll(/`([a-z_.]+)`/g)].map((match) => match[1])).toEqual([...STRIPE_WEBHOOK_EVENTS]);
  });

  it('names only types the adapter maps to an order, a refund or a dispute', () => {
    for (const type of STRIPE_WEBHOOK_EVENTS) {
      const object = type.startsWith('invoice.')
        ? currentInvoice('sub_1', { order_id: ORDER })
        : { id: 'obj_1', metadata: { order_id: ORDER } };
      expect({ type, event: stripeEventOf({ id: 'evt_1', type, data: { object } }) }).toEqual({ type, event: expect.anything() });
    }
  });
});
