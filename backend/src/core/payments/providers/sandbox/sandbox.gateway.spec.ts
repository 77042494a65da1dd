import type { SandboxWebhookEvent } from '@contracts/jobs';
import { planOf, OFFERS } from '@contracts/plans';
import { GatewayOrder, PaymentRefusedError, PaymentUnsupportedError, WebhookRefusedError } from '../../payment-gateway';
import { stripeSignatureFor } from '../stripe/stripe-webhooks';
import { disputeObject, newDispute, paidChargeOf } from './sandbox-disputes';
import { invoiceObject, paymentIntentObject, renewalInvoiceObject, stripeEvent } from './sandbox-events';
import { firstInvoiceId } from './sandbox-ids';
import type { NewSandboxObject, SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';
import type { SandboxStore } from './sandbox-store';
import { SandboxGateway } from './sandbox.gateway';

const SECRET = 'whsec_unitspecsecret000000';
const order = (id: string): GatewayOrder => ({
  id,
  plan: planOf('2-month'),
  amountCents: 55000,
  currency: 'usd',
  email: 'buyer@example.com',
  emailNormalized: 'buyer@example.com',
  name: 'Buyer',
  customerId: 'cus_existing0000000000001',
});

/** The sandbox store's contract in memory: one object per idempotency key, its events only when it is new. */
class MemoryStore {
  readonly byKey = new Map<string, SandboxObjectRow>();
  readonly events: SandboxWebhookEvent[] = [];

  transaction<T>(work: (manager: never) => Promise<T>): Promise<T> {
    return work(undefined as never);
  }

  read<T>(work: (manager: never) => Promise<T>): Promise<T> {
    return work(undefined as never);
  }

  async insertOnce(_manager: never, row: NewSandboxObject, events: (stored: SandboxObjectRow) => SandboxWebhookEvent[]) {
    const existing = this.byKey.get(row.idempotencyKey);
    if (existing) return Promise.resolve(existing);
    const stored: SandboxObjectRow = {
      id: row.id,
      object: row.object,
      order_id: row.orderId,
      plan_id: '2-month',
      client_secret: row.clientSecret,
      status: row.status,
      amount_cents: row.amountCents,
      currency: row.currency,
      customer_id: row.customerId,
      payment_method_id: row.paymentMethodId ?? null,
      card: row.card ?? null,
      last_error: null,
      cancel_at_period_end: false,
      created_at: new Date(),
      iterations: row.iterations ?? null,
      attempt_count: row.attemptCount ?? 0,
      first_failed_at: row.firstFailedAt ?? null,
      next_attempt_at: row.nextAttemptAt ?? null,
      idempotency_key: row.idempotencyKey,
      refunded_id: row.refundedId ?? null,
    };
    this.byKey.set(row.idempotencyKey, stored);
    this.events.push(...events(stored));
    return Promise.resolve(stored);
  }

  find(_manager: never, object: SandboxObjectRow['object'], id: string): Promise<SandboxObjectRow | null> {
    return Promise.resolve([...this.byKey.values()].find((row) => row.object === object && row.id === id) ?? null);
  }

  findByIdempotencyKey(_manager: never, key: string): Promise<SandboxObjectRow | null> {
    return Promise.resolve(this.byKey.get(key) ?? null);
  }

  refundsOf(_manager: never, refundedId: string): Promise<SandboxObjectRow[]> {
    return Promise.resolve([...this.byKey.values()].filter((row) => row.object === 'refund' && row.refunded_id === refundedId));
  }

  findByCustomer(_manager: never, customerId: string): Promise<SandboxObjectRow[]> {
    return Promise.resolve([...this.byKey.values()].filter((row) => row.customer_id === customerId));
  }

  countForOrder(_manager: never, object: SandboxObjectRow['object'], orderId: string): Promise<number> {
    return Promise.resolve([...this.byKey.values()].filter((row) => row.object === object && row.order_id === orderId).length);
  }

  setCancelAtPeriodEnd(
    _manager: never,
    row: SandboxObjectRow,
    cancel: boolean,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    row.cancel_at_period_end = cancel;
    this.events.push(...events(row));
    return Promise.resolve(row);
  }

  update(
    _manager: never,
    row: SandboxObjectRow,
    change: Pick<SandboxObjectRow, 'status' | 'payment_method_id' | 'card' | 'last_error'>,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    Object.assign(row, change);
    this.events.push(...events(row));
    return Promise.resolve(row);
  }
}

describe('SandboxGateway', () => {
  let store: MemoryStore;
  let gateway: SandboxGateway;

  beforeEach(() => {
    store = new MemoryStore();
    gateway = new SandboxGateway(store as unknown as SandboxStore, SECRET);
  });

  /** A charge the buyer has paid (the 'Test mode' form's confirmation, done to the record directly). */
  const paidCharge = async (orderId: string): Promise<string> => {
    const { intentId } = await gateway.createCharge(order(orderId));
    const row = await store.find(undefined as never, 'payment_intent', intentId);
    row!.status = 'succeeded';
    return intentId;
  };

  const KEY_A = '6d1c8a52-0f6e-4b8e-9d43-6c1f7a9e2b01';
  const KEY_B = '6d1c8a52-0f6e-4b8e-9d43-6c1f7a9e2b02';

  it("refunds a paid charge once per request key, with Stripe's refund.created and charge.refunded events", async () => {
    const orderId = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const paymentId = await paidCharge(orderId);
    const refund = await gateway.refund({ orderId, paymentId, requestKey: KEY_A });
    expect(refund).toEqual({
      refundId: expect.stringMatching(/^re_[0-9A-Za-z]{24}$/),
      state: 'succeeded',
      amountCents: 55000,
      currency: 'usd',
      paymentIds: [paymentId],
      requestKey: KEY_A,
    });
    expect(store.events.slice(-2)).toMatchObject([
      {
        type: 'refund.created',
        data: {
          object: { id: refund.refundId, object: 'refund', amount: 55000, payment_intent: paymentId, metadata: { refund_request: KEY_A } },
        },
      },
      { type: 'charge.refunded', data: { object: { id: paymentId, amount_refunded: 55000, refunded: true } } },
    ]);

    const events = store.events.length;
    await expect(gateway.refund({ orderId, paymentId, requestKey: KEY_A })).resolves.toEqual(refund);
    expect(store.events).toHaveLength(events);
    await expect(gateway.readRefund(refund.refundId)).resolves.toEqual(refund);
    await expect(gateway.refundsOfPayment(paymentId)).resolves.toEqual([refund]);
    await expect(gateway.refund({ orderId, paymentId, requestKey: KEY_B })).rejects.toThrow(
      'This payment has already been refunded in full.',
    );
  });

  it('refunds part of a charge when asked, then no more than what is left', async () => {
    const orderId = '1b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const paymentId = await paidCharge(orderId);
    await expect(gateway.refund({ orderId, paymentId, amountCents: 1000, requestKey: KEY_A })).resolves.toMatchObject({
      state: 'succeeded',
      amountCents: 1000,
    });
    await expect(gateway.refund({ orderId, paymentId, amountCents: 54001, requestKey: KEY_B })).rejects.toThrow(
      'A refund of this payment is between 1 and 54000 cents.',
    );
  });

  it('refuses to refund what was not paid, belongs to another order or exceeds the charge', async () => {
    const orderId = '2b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const { intentId: unpaid } = await gateway.createCharge(order(orderId));
    await expect(gateway.refund({ orderId, paymentId: unpaid, requestKey: KEY_A })).rejects.toThrow(
      new PaymentRefusedError('Only a payment that succeeded can be refunded.'),
    );
    const paidOrder = '3b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const paid = await paidCharge(paidOrder);
    await expect(gateway.refund({ orderId, paymentId: paid, requestKey: KEY_A })).rejects.toThrow(
      new PaymentRefusedError('No payment of this order has this id.'),
    );
    await expect(gateway.refund({ orderId: paidOrder, paymentId: 'pi_unknown', requestKey: KEY_A })).rejects.toBeInstanceOf(
      PaymentRefusedError,
    );
    await expect(gateway.refund({ orderId: paidOrder, paymentId: paid, amountCents: 55001, requestKey: KEY_A })).rejects.toThrow(
      'A refund of this payment is between 1 and 55000 cents.',
    );
    await expect(gateway.refund({ orderId: paidOrder, paymentId: paid, amountCents: 0, requestKey: KEY_A })).rejects.toBeInstanceOf(
      PaymentRefusedError,
    );
    expect(store.events.filter((event) => event.type === 'refund.created')).toHaveLength(0);
  });

  it("forgets a customer as Stripe deletes one: its running subscription is canceled, with Stripe's event, and its cards are gone", async () => {
    const orderId = '5b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const standard = { ...order(orderId), plan: OFFERS.default, amountCents: 9700 };
    const { intentId: setupId } = await gateway.createCardSetup(standard);
    Object.assign((await store.find(undefined as never, 'setup_intent', setupId))!, {
      status: 'succeeded',
      payment_method_id: 'pm_sandboxcard000000000001',
      card: { last4: '4242', outcome: 'succeeded' },
    });
    const { subscriptionId } = await gateway.createSubscription(standard, setupId);
    const otherCharge = await gateway.createCharge({
      ...order('6b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10'),
      customerId: 'cus_someoneelse0000000001',
    });
    Object.assign((await store.find(undefined as never, 'payment_intent', otherCharge.intentId))!, {
      payment_method_id: 'pm_someoneelse00000000001',
    });
    const eventsBefore = store.events.length;

    await expect(gateway.forgetCustomer('cus_existing0000000000001')).resolves.toBe('deleted');
    expect(store.events.slice(eventsBefore)).toEqual([
      expect.objectContaining({
        type: 'customer.subscription.deleted',
        data: { object: expect.objectContaining({ id: subscriptionId, status: 'canceled', customer: 'cus_existing0000000000001' }) },
      }),
    ]);
    await expect(gateway.readSubscription(subscriptionId)).resolves.toBe('canceled');
    const forgotten = await store.findByCustomer(undefined as never, 'cus_existing0000000000001');
    expect(forgotten.map((row) => [row.object, row.payment_method_id, row.card])).toEqual([
      ['setup_intent', null, null],
      ['subscription', null, null],
    ]);
    expect((await store.find(undefined as never, 'payment_intent', otherCharge.intentId))!.payment_method_id).toBe(
      'pm_someoneelse00000000001',
    );

    await expect(gateway.forgetCustomer('cus_existing0000000000001')).resolves.toBe('already deleted');
    expect(store.events).toHaveLength(eventsBefore + 1);
  });

  it('says it has no billing portal rather than pretend to open one', async () => {
    await expect(gateway.openBillingPortal()).rejects.toBeInstanceOf(PaymentUnsupportedError);
  });

  it('parses the events it signed itself, Stripe-shaped, and refuses any other signature', () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'setup_intent.succeeded', data: { object: { id: 'seti_1', metadata: {} } } });
    expect(gateway.parseWebhook(Buffer.from(body), stripeSignatureFor(body, SECRET))).toEqual({
      record: JSON.parse(body),
      event: {
        kind: 'setup.succeeded',
        providerEventId: 'evt_1',
        object: 'setup',
        objectId: 'seti_1',
        orderRef: undefined,
        occurredAt: null,
      },
      otherApiVersion: null,
    });
    expect(() => gateway.parseWebhook(Buffer.from(body), stripeSignatureFor(body, 'whsec_someoneelse00000000000000'))).toThrow(
      WebhookRefusedError,
    );
  });

  it('knows its ids by their Stripe-like prefixes', async () => {
    const { intentId } = await gateway.createCharge(order('4b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10'));
    expect(gateway.kindOfId(intentId)).toBe('charge');
    expect(gateway.kindOfId('not-an-id')).toBeNull();
  });

  it('sets cancel at period end with one customer.subscription.updated per change, and nothing for a repeat', async () => {
    const orderId = '5b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
    const subscription = await store.insertOnce(
      undefined as never,
      {
        id: 'sub_account00000000000000001',
        object: 'subscription',
        orderId,
        idempotencyKey: `order:${orderId}:create-subscription`,
        clientSecret: null,
        status: 'active',
        amountCents: 9700,
        currency: 'usd',
        customerId: 'cus_account000000000000001',
      },
      () => [],
    );
    subscription.created_at = new Date('2026-01-31T12:00:00Z');
    const end = new Date('2026-02-28T12:00:00Z');

    await expect(gateway.setCancelAtPeriodEnd(orderId, subscription.id, true)).resolves.toEqual({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: end,
    });
    expect(store.events).toHaveLength(1);
    expect(store.events[0]).toMatchObject({
      type: 'customer.subscription.updated',
      data: {
        object: {
          id: subscription.id,
          cancel_at_period_end: true,
          items: { data: [{ current_period_end: end.getTime() / 1000 }] },
          metadata: { order_id: orderId },
        },
      },
    });
    await gateway.setCancelAtPeriodEnd(orderId, subscription.id, true);
    expect(store.events).toHaveLength(1);
    await expect(gateway.readSubscriptionTerms(subscription.id)).resolves.toEqual({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: end,
      billingCycleAnchor: subscription.created_at,
    });

    await gateway.setCancelAtPeriodEnd(orderId, subscription.id, false);
    expect(store.events).toHaveLength(2);
    expect(store.events[1]).toMatchObject({ data: { object: { cancel_at_period_end: false } } });
    await expect(gateway.setCancelAtPeriodEnd('6b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10', subscription.id, true)).rejects.toThrow(
      PaymentRefusedError,
    );
  });

  describe('disputes (test card 4000 0000 0000 0259)', () => {
    const disputedCard = { last4: '0259', outcome: 'disputed' };

    /** What the store does when a success event reports a payment of a disputed card: the bank's dispute, filed once. */
    const fileDispute = async (event: SandboxWebhookEvent, cardHolder: SandboxObjectRow): Promise<SandboxObjectRow> => {
      const paid = paidChargeOf(event);
      return store.insertOnce(undefined as never, newDispute(paid!, cardHolder), () => []);
    };

    const subscriptionOf = (orderId: string) =>
      store.insertOnce(
        undefined as never,
        {
          id: 'sub_disputed00000000000000001',
          object: 'subscription',
          orderId,
          idempotencyKey: `order:${orderId}:create-subscription`,
          clientSecret: null,
          status: 'active',
          amountCents: 9700,
          currency: 'usd',
          customerId: 'cus_disputed0000000000000001',
          card: disputedCard,
        },
        () => [],
      );

    it('reads a disputed charge in neutral words, by the charge id the payments table holds, until evidence closes it', async () => {
      const orderId = '7b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
      const paymentId = await paidCharge(orderId);
      const charge = (await store.find(undefined as never, 'payment_intent', paymentId))!;
      charge.card = disputedCard;
      const dispute = await fileDispute(stripeEvent('payment_intent.succeeded', paymentIntentObject(charge)), charge);

      expect(dispute.id).toMatch(/^dp_[0-9A-Za-z]{24}$/);
      const disputed = { disputeId: dispute.id, outcome: 'disputed', amountCents: 55000, currency: 'usd', paymentIds: [paymentId] };
      await expect(gateway.readDispute(dispute.id)).resolves.toEqual(disputed);
      expect(disputeObject(dispute, null)).toMatchObject({
        id: dispute.id,
        object: 'dispute',
        charge: paymentId,
        payment_intent: paymentId,
        amount: 55000,
        currency: 'usd',
        status: 'needs_response',
        reason: 'fraudulent',
      });
      // A success event reported again files nothing more: one dispute per payment.
      await expect(fileDispute(stripeEvent('payment_intent.succeeded', paymentIntentObject(charge)), charge)).resolves.toBe(dispute);

      dispute.status = 'under_review';
      await expect(gateway.readDispute(dispute.id)).resolves.toEqual(disputed);
      dispute.status = 'lost';
      await expect(gateway.readDispute(dispute.id)).resolves.toEqual({ ...disputed, outcome: 'lost' });
      dispute.status = 'won';
      await expect(gateway.readDispute(dispute.id)).resolves.toEqual({ ...disputed, outcome: 'won' });
      await expect(gateway.readDispute('dp_nosuchdispute00000000001')).resolves.toBeNull();
    });

    it("names a subscription's disputed first payment by its subscription and first invoice, and a renewal by its invoice", async () => {
      const orderId = '8b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
      const subscription = await subscriptionOf(orderId);
      const first = await fileDispute(
        stripeEvent('invoice.paid', invoiceObject(subscription, firstInvoiceId(subscription), true)),
        subscription,
      );
      await expect(gateway.readDispute(first.id)).resolves.toMatchObject({
        outcome: 'disputed',
        amountCents: 9700,
        paymentIds: [firstInvoiceId(subscription), subscription.id],
      });
      expect(disputeObject(first, null)).toMatchObject({ charge: subscription.id, payment_intent: null });

      const renewal = {
        ...subscription,
        id: 'in_renewal0000000000000000001',
        object: 'invoice' as const,
        status: 'paid',
        amount_cents: 4900,
      };
      const second = await fileDispute(stripeEvent('invoice.paid', renewalInvoiceObject(subscription, renewal)), subscription);
      await expect(gateway.readDispute(second.id)).resolves.toMatchObject({ amountCents: 4900, paymentIds: [renewal.id] });
    });

    it('files nothing for events that report no payment made', () => {
      const subscription = {
        id: 'sub_x',
        customer_id: 'cus_x',
        amount_cents: 9700,
        currency: 'usd',
        order_id: 'o',
        plan_id: 'p',
      } as SandboxObjectRow;
      expect(paidChargeOf(stripeEvent('invoice.payment_failed', invoiceObject(subscription, 'in_x', false)))).toBeNull();
      expect(paidChargeOf(stripeEvent('payment_intent.created', { id: 'pi_x' }))).toBeNull();
    });
  });
});
