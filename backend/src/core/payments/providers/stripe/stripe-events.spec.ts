import { stripeEventOf, stripeSubjectOf } from './stripe-events';

const ORDER = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';

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

  it('reads an invoice through its subscription, whether the subscription is an id or expanded, naming the invoice', () => {
    const metadata = { subscription_details: { metadata: { order_id: ORDER } } };
    expect(stripeSubjectOf('invoice.paid', { id: 'in_1', subscription: 'sub_2', ...metadata })).toEqual({
      object: 'subscription',
      objectId: 'sub_2',
      orderRef: ORDER,
      invoiceId: 'in_1',
    });
    expect(stripeSubjectOf('invoice.payment_failed', { id: 'in_1', subscription: { id: 'sub_3' } })).toEqual({
      object: 'subscription',
      objectId: 'sub_3',
      orderRef: undefined,
      invoiceId: 'in_1',
    });
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
});
