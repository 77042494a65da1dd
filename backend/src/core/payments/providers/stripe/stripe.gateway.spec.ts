import { CURRENCY, planOf } from '@contracts/plans';
import { ConfigError, loadConfig } from '../../../config/app-config';
import { FakeStripeServer } from '../../../../../../tests/fakes/stripe-server';
import { PaymentRefusedError } from '../../payment-gateway';
import { stripeSignatureFor } from './stripe-webhooks';
import { createStripeGateway, StripeGateway } from './stripe.gateway';

/** The fake Stripe account charges in the site's currency, as one set up for the site does. */
const SITE_CURRENCY = CURRENCY.toLowerCase();

const ORDER_ID = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';
const WEBHOOK_SECRET = 'whsec_unitspecsecret000000';
const keys = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  STRIPE_SECRET_KEY: 'sk_test_unitspec',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_unitspec',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

describe('StripeGateway', () => {
  const stripe = new FakeStripeServer();
  let gateway: StripeGateway;

  beforeAll(async () => {
    await stripe.start();
    gateway = createStripeGateway(
      loadConfig({ ...keys, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: String(stripe.port), STRIPE_API_PROTOCOL: 'http' }),
    );
  });
  afterEach(() => stripe.reset());
  afterAll(() => stripe.stop());

  it('needs its publishable key and webhook secret with the secret key', () => {
    expect(() => createStripeGateway(loadConfig({ ...keys, STRIPE_WEBHOOK_SECRET: '' }))).toThrow(ConfigError);
    expect(() => createStripeGateway(loadConfig({ ...keys, STRIPE_PUBLISHABLE_KEY: '' }))).toThrow(ConfigError);
    expect(gateway.publishableKey).toBe('pk_test_unitspec');
  });

  const REQUEST = '8a3c1d6e-2b4f-4c7a-9e1d-3f5b6a7c8d90';

  it("refunds a whole charge under the request's key, and part of one when asked", async () => {
    const charge = await gateway.createCharge({
      id: ORDER_ID,
      plan: planOf('2-month'),
      amountCents: 55000,
      currency: SITE_CURRENCY,
      email: 'buyer@example.com',
      emailNormalized: 'buyer@example.com',
      name: 'Buyer',
      customerId: 'cus_existing0000000000001',
    });
    await expect(gateway.refund({ orderId: ORDER_ID, paymentId: charge.intentId, requestKey: REQUEST })).resolves.toEqual({
      refundId: 're_fake000000000000000001',
      state: 'succeeded',
      amountCents: 55000,
      currency: SITE_CURRENCY,
      paymentIds: [charge.intentId],
      requestKey: REQUEST,
    });
    const create = stripe.requests.find((r) => r.path === '/v1/refunds');
    expect(create).toMatchObject({
      method: 'POST',
      params: { payment_intent: charge.intentId, 'metadata[order_id]': ORDER_ID, 'metadata[refund_request]': REQUEST },
      idempotencyKey: `refund:${REQUEST}`,
    });
    expect(create?.params).not.toHaveProperty('amount');
    await expect(gateway.refund({ orderId: ORDER_ID, paymentId: charge.intentId, requestKey: 'another-key' })).rejects.toBeInstanceOf(
      PaymentRefusedError,
    );

    stripe.reset();
    stripe.refundStatus = 'pending';
    await expect(
      gateway.refund({ orderId: ORDER_ID, paymentId: 'pi_fake000000000000000001', amountCents: 1000, requestKey: REQUEST }),
    ).resolves.toMatchObject({ refundId: 're_fake000000000000000001', state: 'pending', amountCents: 1000 });
    expect(stripe.requests.find((r) => r.path === '/v1/refunds')?.params.amount).toBe('1000');
  });

  it("refunds a renewal invoice and a subscription's first payment through the payment intent that paid them", async () => {
    stripe.addInvoice({
      id: 'in_first',
      subscription: 'sub_fake000000000000000001',
      billingReason: 'subscription_create',
      amountPaid: 9700,
      paidAt: 1,
      paymentIntent: 'pi_first0000000000000001',
    });
    stripe.addInvoice({
      id: 'in_renewal',
      subscription: 'sub_fake000000000000000001',
      billingReason: 'subscription_cycle',
      amountPaid: 9700,
      paidAt: 2,
      paymentIntent: 'pi_renewal00000000000001',
    });
    await expect(gateway.refund({ orderId: ORDER_ID, paymentId: 'in_renewal', requestKey: 'k1' })).resolves.toMatchObject({
      amountCents: 9700,
      paymentIds: ['in_renewal', 'pi_renewal00000000000001'],
    });
    await expect(gateway.refund({ orderId: ORDER_ID, paymentId: 'sub_fake000000000000000001', requestKey: 'k2' })).resolves.toMatchObject({
      amountCents: 9700,
      paymentIds: ['in_first', 'pi_first0000000000000001', 'sub_fake000000000000000001'],
    });
  });

  it('reports a refund Stripe failed as failed', async () => {
    stripe.refundStatus = 'failed';
    await expect(
      gateway.refund({ orderId: ORDER_ID, paymentId: 'pi_fake000000000000000001', amountCents: 1, requestKey: REQUEST }),
    ).resolves.toMatchObject({ state: 'failed' });
  });

  it('reads a dispute, and cancels a subscription at once (a second cancel finds it canceled)', async () => {
    stripe.addDispute({ id: 'dp_1', paymentIntent: 'pi_fake000000000000000001', amount: 9700, status: 'needs_response' });
    await expect(gateway.readDispute('dp_1')).resolves.toMatchObject({ outcome: 'disputed', paymentIds: ['pi_fake000000000000000001'] });
    stripe.addDispute({ id: 'dp_1', paymentIntent: 'pi_fake000000000000000001', amount: 9700, status: 'lost' });
    await expect(gateway.readDispute('dp_1')).resolves.toMatchObject({ outcome: 'lost' });
    // Newer statuses: an appeal is still open; dispute prevention's resolution refunded the cardholder, its block did not.
    stripe.addDispute({ id: 'dp_2', paymentIntent: 'pi_fake000000000000000001', amount: 9700, status: 'appeal_under_review' });
    await expect(gateway.readDispute('dp_2')).resolves.toMatchObject({ outcome: 'disputed' });
    stripe.addDispute({
      id: 'dp_2',
      paymentIntent: 'pi_fake000000000000000001',
      amount: 9700,
      status: 'prevented',
      caseType: 'resolution',
    });
    await expect(gateway.readDispute('dp_2')).resolves.toMatchObject({ outcome: 'lost' });
    stripe.addDispute({ id: 'dp_3', paymentIntent: 'pi_fake000000000000000001', amount: 9700, status: 'prevented', caseType: 'block' });
    await expect(gateway.readDispute('dp_3')).resolves.toMatchObject({ outcome: 'won' });
    await expect(gateway.readDispute('dp_missing')).resolves.toBeNull();
    await expect(gateway.cancelSubscriptionNow('sub_fake000000000000000001', 'cancel:1')).resolves.toBe('canceled');
    await expect(gateway.cancelSubscriptionNow('sub_fake000000000000000001', 'cancel:2')).resolves.toBe('canceled');
    expect(stripe.subscriptionsCanceled()).toEqual(['sub_fake000000000000000001']);
  });

  it("opens the customer's billing portal with the page to return to", async () => {
    await expect(gateway.openBillingPortal('cus_fake000000000000000001', 'https://example.com/account')).resolves.toEqual({
      url: 'https://billing.stripe.com/p/session/test_fake',
    });
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/billing_portal/sessions',
      params: { customer: 'cus_fake000000000000000001', return_url: 'https://example.com/account' },
    });
  });

  it('opens the portal configuration STRIPE_PORTAL_CONFIGURATION names (npm run stripe:setup made it)', async () => {
    const configured = createStripeGateway(
      loadConfig({
        ...keys,
        STRIPE_PORTAL_CONFIGURATION: 'bpc_setup00000000000000001',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      }),
    );
    await configured.openBillingPortal('cus_fake000000000000000001', 'https://example.com/account');
    expect(stripe.requests.at(-1)?.params).toMatchObject({ configuration: 'bpc_setup00000000000000001' });
    // Unset: Stripe's default configuration (no parameter).
    await gateway.openBillingPortal('cus_fake000000000000000001', 'https://example.com/account');
    expect(stripe.requests.at(-1)?.params).not.toHaveProperty('configuration');
  });

  it('deletes a customer, and takes the 404 of one already deleted as done', async () => {
    await expect(gateway.forgetCustomer('cus_erased00000000000000001')).resolves.toBe('deleted');
    await expect(gateway.forgetCustomer('cus_erased00000000000000001')).resolves.toBe('already deleted');
    expect(stripe.calls()).toEqual([
      'DELETE /v1/customers/cus_erased00000000000000001',
      'DELETE /v1/customers/cus_erased00000000000000001',
    ]);
    expect(stripe.customersDeleted()).toEqual(['cus_erased00000000000000001']);
  });

  it('throws what else Stripe refuses a delete with, for the job to retry', async () => {
    stripe.failNext(3);
    await expect(gateway.forgetCustomer('cus_erased00000000000000002')).rejects.toThrow('Fake outage');
    expect(stripe.customersDeleted()).toEqual([]);
  });

  it('reads a subscription invoice in neutral words: paid, first or a renewal, amount; none for an unknown id', async () => {
    stripe.addInvoice({
      id: 'in_renewal2',
      subscription: 'sub_1',
      billingReason: 'subscription_cycle',
      amountPaid: 9700,
      paidAt: 1_700_000_000,
    });
    stripe.addInvoice({
      id: 'in_first1',
      subscription: 'sub_1',
      billingReason: 'subscription_create',
      amountPaid: 9700,
      paidAt: 1_600_000_000,
    });
    await expect(gateway.readInvoice('in_renewal2')).resolves.toEqual({
      invoiceId: 'in_renewal2',
      subscriptionId: 'sub_1',
      paid: true,
      first: false,
      amountCents: 9700,
      currency: SITE_CURRENCY,
      paidAt: new Date(1_700_000_000_000),
    });
    await expect(gateway.readInvoice('in_first1')).resolves.toMatchObject({ first: true, paid: true });
    await expect(gateway.readInvoice('in_nosuch')).resolves.toBeNull();
  });

  it('parses a webhook signed with its secret into the record to store, a neutral event and its other API version', () => {
    // An endpoint still on the acacia version: the old invoice shape, read all the same.
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      api_version: '2025-02-24.acacia',
      type: 'invoice.payment_failed',
      created: 1_700_000_000,
      data: { object: { id: 'in_1', subscription: 'sub_1', subscription_details: { metadata: { order_id: ORDER_ID } } } },
    });
    expect(gateway.webhookSignatureHeader).toBe('stripe-signature');
    expect(gateway.parseWebhook(Buffer.from(body), stripeSignatureFor(body, WEBHOOK_SECRET))).toEqual({
      record: JSON.parse(body),
      event: {
        kind: 'subscription.payment_failed',
        providerEventId: 'evt_1',
        object: 'subscription',
        objectId: 'sub_1',
        orderRef: ORDER_ID,
        occurredAt: new Date(1_700_000_000_000),
        invoiceId: 'in_1',
      },
      otherApiVersion: '2025-02-24.acacia',
    });
    expect(() => gateway.parseWebhook(Buffer.from(body), stripeSignatureFor(body, 'whsec_someoneelse00000000000000'))).toThrow(
      'Webhook signature does not match.',
    );
  });

  it('acts only on the event types the endpoint subscribes to: others (stripe listen forwards all) are skipped', () => {
    const record = (type: string) => ({ id: 'evt_1', type, data: { object: { id: 'pi_1', metadata: { order_id: ORDER_ID } } } });
    expect(gateway.eventOf(record('payment_intent.succeeded'))).toMatchObject({ kind: 'charge.succeeded', objectId: 'pi_1' });
    expect(gateway.eventOf(record('payment_intent.created'))).toBeNull();
    expect(gateway.eventOf(record('payment_intent.amount_capturable_updated'))).toBeNull();
  });

  it('reads charges, card setups and subscriptions in neutral words', async () => {
    stripe.paymentIntentStatus = 'requires_capture';
    stripe.setupIntentStatus = 'requires_action';
    stripe.subscriptionStatus = 'unpaid';
    await expect(gateway.readCharge('pi_fake000000000000000001')).resolves.toBe('processing');
    await expect(gateway.readCardSetup('seti_fake000000000000000001')).resolves.toBe('requires_action');
    // Retries over ('mark unpaid'): no longer past due, whose access lasts only a grace period.
    await expect(gateway.readSubscription('sub_fake000000000000000001')).resolves.toBe('unpaid');
    expect(gateway.kindOfId('pi_fake000000000000000001')).toBe('charge');
  });

  describe('instalment schedules', () => {
    const CUSTOMER = 'cus_fake000000000000000001';
    const sixMonth = {
      id: ORDER_ID,
      plan: planOf('6-month'),
      amountCents: 25000,
      currency: SITE_CURRENCY,
      email: 'buyer@example.com',
      emailNormalized: 'buyer@example.com',
      name: 'Buyer',
      customerId: CUSTOMER,
    };
    const schedule = async () => {
      const charge = await gateway.createCharge(sixMonth);
      return gateway.scheduleInstalments({ order: sixMonth, chargeId: charge.intentId, count: 5, firstPaidAt: new Date() });
    };
    const creates = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscription_schedules');

    it("adopts a schedule made for the order earlier, whatever key made it, and leaves another order's alone", async () => {
      stripe.addSchedule({ customer: CUSTOMER, orderId: '7c0e4b1a-5d2f-4e8a-9b3c-1f6d2e8a4c70' });
      const earlier = stripe.addSchedule({ customer: CUSTOMER, orderId: ORDER_ID });
      await expect(schedule()).resolves.toEqual({ scheduleId: earlier, subscriptionId: null });
      expect(creates()).toEqual([]);
    });

    it("makes one schedule when its create's answer was lost and it is asked again after Stripe forgot the key", async () => {
      const first = await schedule();
      expect(creates()).toHaveLength(1);
      stripe.forgetIdempotencyKeys();
      await expect(schedule()).resolves.toEqual(first);
      expect(creates()).toHaveLength(1);
    });

    it('stops a plan by canceling its schedule once, with the subscription the schedule started', async () => {
      const scheduleId = stripe.addSchedule({ customer: CUSTOMER, orderId: ORDER_ID, subscription: 'sub_scheduled0000000000001' });
      const plan = { orderId: ORDER_ID, scheduleId, subscriptionId: 'sub_scheduled0000000000001' };
      await expect(gateway.stopInstalments(plan, `stop-instalments:${scheduleId}`)).resolves.toBe('stopped');
      expect(stripe.requests.filter((r) => r.path === `/v1/subscription_schedules/${scheduleId}/cancel`)).toEqual([
        expect.objectContaining({ method: 'POST', idempotencyKey: `stop-instalments:${scheduleId}`, status: 200 }),
      ]);
      expect(stripe.schedule(scheduleId)).toMatchObject({ status: 'canceled' });
      await expect(gateway.readSubscription('sub_scheduled0000000000001')).resolves.toBe('canceled');
      // Asked again under a new key (a ledger record lost): Stripe refuses the cancel, the plan has ended.
      await expect(gateway.stopInstalments(plan, 'another-key')).resolves.toBe('already ended');
    });

    it('stops a plan not started yet, one kept before its schedule id was (through its subscription), and none gone', async () => {
      const notStarted = stripe.addSchedule({ customer: CUSTOMER, orderId: ORDER_ID });
      await expect(gateway.stopInstalments({ orderId: ORDER_ID, scheduleId: notStarted, subscriptionId: null }, 'k1')).resolves.toBe(
        'stopped',
      );
      expect(stripe.schedule(notStarted)).toMatchObject({ status: 'canceled' });
      await expect(
        gateway.stopInstalments({ orderId: ORDER_ID, scheduleId: null, subscriptionId: 'sub_legacy00000000000001' }, 'k2'),
      ).resolves.toBe('stopped');
      expect(stripe.subscriptionsCanceled()).toEqual(['sub_legacy00000000000001']);
      await expect(gateway.stopInstalments({ orderId: ORDER_ID, scheduleId: 'sub_sched_gone', subscriptionId: null }, 'k3')).resolves.toBe(
        'already ended',
      );
    });
  });
});
