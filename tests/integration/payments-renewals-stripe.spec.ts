import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { FakeMetaCapiServer } from '../fakes/meta-capi-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { startSaleFakes } from './support/sale-fakes';
import { clientAddresses, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * Renewals of a Stripe subscription through the real worker: every later paid invoice
 * (`invoice.paid`, billing_reason subscription_cycle) is one payment of its order with its own
 * receipt and affiliate sale, and no second server-side Purchase; duplicated and out-of-order
 * events change nothing.
 */
const WEBHOOK_SECRET = 'whsec_renewalstestsecret000000000';
const META_TOKEN = 'meta-test-token';
const SUBSCRIPTION = 'sub_fake000000000000000001';
const COOKIES = '_ga=GA1.1.1234567890.1700000000; _fbp=fb.1.1700000000.42; _fbc=fb.1.1700000000.click';
const DAY = 86_400;

const affiliate = new FakeAffiliateServer();
const meta = new FakeMetaCapiServer({ accessToken: META_TOKEN });
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: () => startSaleFakes({ affiliate, meta, ga4, smtp }, META_TOKEN, 'G-RENEWALS1'),
  fakes: [affiliate, meta, ga4, smtp],
});
const { stripe } = spec;
let counter = 0;
const nextClient = clientAddresses(8);
let buyer = '';

const http = () => request(spec.stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).set('Cookie', COOKIES).send(body);

const invoicePaid = (id: string, invoice: object, created: number) => spec.event('invoice.paid', invoice, { id, created });

const order = async () =>
  (
    await spec.stack.db.query(
      `SELECT id, status, paid_effects, COALESCE(payment_intent_id, subscription_id) AS first_payment_id FROM orders WHERE email = $1`,
      [buyer],
    )
  )[0];
const payments = async () => paymentsOf(spec.stack.db, (await order()).id);

beforeEach(() => {
  buyer = `renewal-buyer-${++counter}@example.com`;
});

/** The default plan and its price in minor units, from the site folder. */
const STANDARD = OFFERS.default;
const STANDARD_CENTS = toMinorUnits(STANDARD.amount, CURRENCY);

/** A live standard member whose first payment has settled (its four paid effects recorded). */
async function subscribe(): Promise<string> {
  await post('/api/create-setup-intent', { email: buyer, name: 'Renee Wal', source: 'clear', referral: 'partner7' }).expect(200);
  // As checkout records it with a live key: only a live order's payments are sales.
  await spec.stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Renee Wal',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: STANDARD.name,
    amount: STANDARD.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await order())?.paid_effects ?? {}).length === 4, 'first payment settled');
  return (await order()).id;
}

const renewal = (id: string, orderId: string, paidAt: number) =>
  stripe.addInvoice({
    id,
    subscription: SUBSCRIPTION,
    billingReason: 'subscription_cycle',
    amountPaid: STANDARD_CENTS,
    paidAt,
    metadata: { order_id: orderId },
  });

it('a renewal invoice.paid is one payment with its own receipt and affiliate sale, and no second Purchase', async () => {
  const orderId = await subscribe();
  const now = Math.floor(Date.now() / 1000);
  const invoice = renewal('in_renewal0000000000000002', orderId, now + 30 * DAY);
  await spec.webhook(invoicePaid('evt_renewal_2', invoice, now + 30 * DAY));
  await paymentsSettled(spec.stack.db, (await order()).id, 2);

  const { first_payment_id: firstPaymentId } = await order();
  expect(await payments()).toEqual([
    { provider_payment_id: firstPaymentId, sequence: 1, amount_cents: STANDARD_CENTS, paid_effects: {} },
    {
      provider_payment_id: 'in_renewal0000000000000002',
      sequence: 2,
      amount_cents: STANDARD_CENTS,
      paid_effects: {
        'affiliate-sale': 'sent',
        'receipt-email': 'sent',
        'meta-purchase': 'skipped: first payment only',
        'ga4-purchase': 'skipped: first payment only',
      },
    },
  ]);
  // The renewal's sale carries the invoice as its event id: FirstPromoter counts a recurring commission.
  expect(exactlyOnceProblems(affiliate.salesAtDoor(), [firstPaymentId, 'in_renewal0000000000000002'])).toEqual([]);
  expect(affiliate.sales()[1].params).toMatchObject({
    email: buyer,
    amount: String(STANDARD_CENTS),
    event_id: 'in_renewal0000000000000002',
  });
  expect(meta.eventsAtDoor()).toHaveLength(1);
  expect(ga4.eventsAtDoor()).toHaveLength(1);
  expect(smtp.deliveriesAtDoor().map((d) => d.toldDone)).toEqual([true, true]);
  const renewalMail = smtp.messages[1];
  expect(renewalMail.envelope.to).toEqual([buyer]);
  expect(renewalMail.text).toContain('Payment: Payment 2');
  expect(renewalMail.text).toContain(formatMoney(STANDARD_CENTS, CURRENCY, { decimals: 'always' }));
});

it('the same renewal delivered twice, and renewals out of order, are each recorded and settled once', async () => {
  const orderId = await subscribe();
  const now = Math.floor(Date.now() / 1000);
  const second = renewal('in_renewal0000000000000002', orderId, now + 30 * DAY);
  const third = renewal('in_renewal0000000000000003', orderId, now + 60 * DAY);
  const first = stripe.addInvoice({
    id: 'in_first00000000000000001',
    subscription: SUBSCRIPTION,
    billingReason: 'subscription_create',
    amountPaid: STANDARD_CENTS,
    paidAt: now,
    metadata: { order_id: orderId },
  });

  // The third period's event first, then the second's twice (one event replayed, one sent again under a new id), then the first invoice's late.
  await spec.webhook(invoicePaid('evt_renewal_3', third, now + 60 * DAY));
  const replayed = invoicePaid('evt_renewal_2', second, now + 30 * DAY);
  await spec.webhook(replayed);
  expect((await spec.webhook(replayed)).body).toEqual({ received: true, duplicate: true });
  await spec.webhook(invoicePaid('evt_renewal_2_again', second, now + 30 * DAY));
  await spec.webhook(invoicePaid('evt_first', first, now));
  await paymentsSettled(spec.stack.db, (await order()).id, 3);

  const { first_payment_id: firstPaymentId } = await order();
  const rows = await payments();
  expect(rows.map((p: { provider_payment_id: string }) => p.provider_payment_id).sort()).toEqual(
    [firstPaymentId, 'in_renewal0000000000000002', 'in_renewal0000000000000003'].sort(),
  );
  expect(
    exactlyOnceProblems(affiliate.salesAtDoor(), [firstPaymentId, 'in_renewal0000000000000002', 'in_renewal0000000000000003']),
  ).toEqual([]);
  expect(
    exactlyOnceProblems(
      smtp.deliveriesAtDoor(),
      smtp.deliveriesAtDoor().map((d) => d.identity),
    ),
  ).toEqual([]);
  expect(new Set(smtp.deliveriesAtDoor().map((d) => d.identity)).size).toBe(3);
  expect(meta.eventsAtDoor()).toHaveLength(1);
  expect(ga4.eventsAtDoor()).toHaveLength(1);
  expect(await spec.stack.db.query(`SELECT id FROM outbox WHERE job_name = 'payment-paid'`)).toHaveLength(2);
});
