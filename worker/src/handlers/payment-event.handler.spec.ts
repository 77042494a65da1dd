import { subjectOf } from './payment-event.handler';

const ORDER = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';

describe('subjectOf', () => {
  it('names the intent or subscription an event is about, with the order id from its metadata', () => {
    expect(subjectOf('payment_intent.succeeded', { id: 'pi_1', metadata: { order_id: ORDER } })).toEqual({
      column: 'payment_intent_id',
      objectId: 'pi_1',
      orderId: ORDER,
    });
    expect(subjectOf('setup_intent.setup_failed', { id: 'seti_1', metadata: {} })).toEqual({
      column: 'setup_intent_id',
      objectId: 'seti_1',
      orderId: undefined,
    });
    expect(subjectOf('customer.subscription.updated', { id: 'sub_1', metadata: { order_id: ORDER } })).toEqual({
      column: 'subscription_id',
      objectId: 'sub_1',
      orderId: ORDER,
    });
  });

  it('reads an invoice through its subscription, whether the subscription is an id or expanded', () => {
    const metadata = { subscription_details: { metadata: { order_id: ORDER } } };
    expect(subjectOf('invoice.paid', { id: 'in_1', subscription: 'sub_2', ...metadata })).toEqual({
      column: 'subscription_id',
      objectId: 'sub_2',
      orderId: ORDER,
    });
    expect(subjectOf('invoice.payment_failed', { id: 'in_1', subscription: { id: 'sub_3' } })).toEqual({
      column: 'subscription_id',
      objectId: 'sub_3',
      orderId: undefined,
    });
  });

  it('ignores events about other objects and order ids that are not ours', () => {
    expect(subjectOf('charge.refunded', { id: 'ch_1' })).toBeNull();
    expect(subjectOf('invoice.finalized', { id: 'in_1', subscription: 'sub_2' })).toBeNull();
    expect(subjectOf('payment_intent.succeeded', { id: 'pi_1', metadata: { order_id: "1'; DROP TABLE orders" } })?.orderId).toBeUndefined();
  });
});
