import { Logger } from '@nestjs/common';
import request from 'supertest';
import type Stripe from 'stripe';
import { STRIPE_API_VERSION } from '@core/payments/providers/stripe/stripe-client';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * Stripe events of any API version, through the signed webhook route and the real worker: a
 * renewal's `invoice.paid` and a failed renewal's `invoice.payment_failed` written in the pinned
 * version's shapes (the subscription under `parent.subscription_details`) or in the acacia shapes
 * an endpoint left on an older version sends (`subscription` on the invoice) each make one payment
 * with one receipt, and one dunning e-mail. An event of another version than the pinned is counted
 * (funnel_stripe_event_version_total) once per event and logged once per version.
 */
/** The default plan and its price in minor units, from the site folder. */
const STANDARD = OFFERS.default;
const STANDARD_CENTS = toMinorUnits(STANDARD.amount, CURRENCY);
const WEBHOOK_SECRET = 'whsec_eventversionstestsecret0000';
const METRICS_TOKEN = 'event-versions-spec-metrics-token-0123456789';
const SUBSCRIPTION = 'sub_fake000000000000000001';
const ACACIA = '2025-02-24.acacia';
const DAY = 86_400;

/**
 * An invoice as API versions up to 2025-02-24.acacia shape it. stripe-node 23's types no longer
 * have its `subscription`, `subscription_details` and `payment_intent`, so the shape is kept here.
 */
interface AcaciaInvoice {
  id: string;
  object: 'invoice';
  subscription: string | null;
  subscription_details: { metadata: Record<string, string> | null } | null;
  payment_intent: string | null;
  paid: boolean;
  billing_reason: Stripe.Invoice.BillingReason;
  status: Stripe.Invoice.Status;
  amount_due: number;
  amount_paid: number;
  currency: string;
  attempt_count: number;
  status_transitions: { paid_at: number | null };
  livemode: boolean;
  created: number;
}

type Family = 'current' | 'acacia';
interface InvoiceFacts {
  id: string;
  orderId: string;
  paid: boolean;
  at: number;
  attempt?: number;
}

/** A renewal invoice of the member's subscription, as the pinned version (stripe-node 23's Invoice) shapes it. */
const currentInvoice = (invoice: InvoiceFacts) =>
  ({
    id: invoice.id,
    object: 'invoice',
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: SUBSCRIPTION, metadata: { order_id: invoice.orderId } },
    },
    billing_reason: 'subscription_cycle',
    status: invoice.paid ? 'paid' : 'open',
    amount_due: STANDARD_CENTS,
    amount_paid: invoice.paid ? STANDARD_CENTS : 0,
    amount_remaining: invoice.paid ? 0 : STANDARD_CENTS,
    currency: CURRENCY.toLowerCase(),
    attempt_count: invoice.attempt ?? 1,
    status_transitions: {
      paid_at: invoice.paid ? invoice.at : null,
      finalized_at: invoice.at,
      marked_uncollectible_at: null,
      voided_at: null,
    },
    livemode: false,
    created: invoice.at,
  }) satisfies Partial<Stripe.Invoice>;

/** The same renewal invoice as an acacia endpoint receives it. */
const acaciaInvoice = (invoice: InvoiceFacts): AcaciaInvoice => ({
  id: invoice.id,
  object: 'invoice',
  subscription: SUBSCRIPTION,
  subscription_details: { metadata: { order_id: invoice.orderId } },
  payment_intent: `pi_${invoice.id.slice('in_'.length)}`,
  paid: invoice.paid,
  billing_reason: 'subscription_cycle',
  status: invoice.paid ? 'paid' : 'open',
  amount_due: STANDARD_CENTS,
  amount_paid: invoice.paid ? STANDARD_CENTS : 0,
  currency: CURRENCY.toLowerCase(),
  attempt_count: invoice.attempt ?? 1,
  status_transitions: { paid_at: invoice.paid ? invoice.at : null },
  livemode: false,
  created: invoice.at,
});

const smtp = new SmtpSink();
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: async () => ({ SMTP_URL: await smtp.start(), METRICS_TOKEN }),
  fakes: [smtp],
});
const { stripe, event, webhook: send } = spec;
let counter = 0;
const nextClient = clientAddresses(41);
let buyer = '';

const post = (path: string, body: object) => request(spec.stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);
const order = async () => (await spec.stack.db.query(`SELECT id, status, paid_effects FROM orders WHERE email = $1`, [buyer]))[0];
const subjects = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer)).map((m) => m.subject ?? '');

/** One sample of /api/metrics by its series (name and labels as printed), 0 when absent. */
async function metric(series: string): Promise<number> {
  const text = (await request(spec.stack.url).get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ').pop()) : 0;
}
const versionCount = (version: string) => metric(`funnel_stripe_event_version_total{version="${version}"}`);

beforeEach(() => {
  buyer = `versions-${++counter}@example.com`;
});

/** A member whose first payment has settled: its receipt sent. */
async function subscribe(): Promise<string> {
  await post('/api/create-setup-intent', { email: buyer, name: 'Vera Sion', source: 'clear' }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Vera Sion',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: STANDARD.name,
    amount: STANDARD.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await order())?.paid_effects ?? {}).length === 4, 'first payment settled');
  return (await order()).id;
}

describe.each<[Family, string, (invoice: InvoiceFacts) => object]>([
  ['current', STRIPE_API_VERSION, currentInvoice],
  ['acacia', ACACIA, acaciaInvoice],
])('%s shapes (API version %s)', (family, apiVersion, invoiceOf) => {
  it('a renewal paid is one payment with one receipt; a renewal failed is one dunning e-mail', async () => {
    const orderId = await subscribe();
    const now = Math.floor(Date.now() / 1000);
    const paid = { id: 'in_renewalpaid000000000002', orderId, paid: true, at: now + 30 * DAY };
    const failed = { id: 'in_renewalfailed0000000003', orderId, paid: false, at: now + 60 * DAY };
    // What the worker re-reads through the pinned SDK: Stripe answers in the pinned version whatever the endpoint's.
    stripe.addInvoice({
      id: paid.id,
      subscription: SUBSCRIPTION,
      billingReason: 'subscription_cycle',
      amountPaid: STANDARD_CENTS,
      paidAt: paid.at,
    });
    stripe.addInvoice({
      id: failed.id,
      subscription: SUBSCRIPTION,
      billingReason: 'subscription_cycle',
      amountPaid: STANDARD_CENTS,
      paidAt: failed.at,
      status: 'open',
    });

    // The renewal's event, redelivered, and sent again under a new id.
    const paidEvent = event('invoice.paid', invoiceOf(paid), { id: `evt_${family}_paid`, created: paid.at, apiVersion });
    await send(paidEvent);
    expect((await send(paidEvent)).body).toEqual({ received: true, duplicate: true });
    await send(event('invoice.paid', invoiceOf(paid), { id: `evt_${family}_paid_again`, created: paid.at, apiVersion }));
    await paymentsSettled(spec.stack.db, orderId, 2);

    // The failed renewal and Stripe's retry of it.
    stripe.setSubscriptionStatus(SUBSCRIPTION, 'past_due');
    await send(event('invoice.payment_failed', invoiceOf(failed), { id: `evt_${family}_failed_1`, created: failed.at, apiVersion }));
    await send(
      event('invoice.payment_failed', invoiceOf({ ...failed, attempt: 2 }), {
        id: `evt_${family}_failed_2`,
        created: failed.at + 3 * DAY,
        apiVersion,
      }),
    );
    await waitFor(
      async () => subjects().some((s) => s.includes(`payment of ${formatMoney(STANDARD_CENTS, CURRENCY, { decimals: 'always' })} failed`)),
      'failed-payment e-mail',
    );
    await outboxDrained(spec.stack.db);

    const payments = await paymentsOf(spec.stack.db, orderId);
    expect(payments.map((p) => [p.sequence, p.provider_payment_id === paid.id, p.amount_cents])).toEqual([
      [1, false, STANDARD_CENTS],
      [2, true, STANDARD_CENTS],
    ]);
    expect(payments[1].paid_effects['receipt-email']).toBe('sent');
    const receipts = smtp.messages.filter((m) => m.envelope.to.includes(buyer) && /Payment: Payment 2/.test(m.text ?? ''));
    expect(receipts).toHaveLength(1);
    expect(subjects().filter((s) => /failed/.test(s))).toHaveLength(1);
  });
});

it('counts each event of another API version once (a redelivery is not another), and tells each version once', async () => {
  const warn = jest.spyOn(Logger.prototype, 'warn');
  try {
    const older = '2024-06-20';
    const newer = '2027-04-28.fig';
    const at = Math.floor(Date.now() / 1000);
    const about = (id: string) => ({ id, object: 'invoice', parent: null }) satisfies Partial<Stripe.Invoice>;
    const first = event('invoice.finalized', about('in_version1'), { id: 'evt_version_1', created: at, apiVersion: older });
    await send(first);
    await send(first);
    await send(event('invoice.finalized', about('in_version2'), { id: 'evt_version_2', created: at, apiVersion: older }));
    await send(event('invoice.finalized', about('in_version3'), { id: 'evt_version_3', created: at, apiVersion: newer }));
    await send(event('invoice.finalized', about('in_version4'), { id: 'evt_version_4', created: at, apiVersion: STRIPE_API_VERSION }));

    expect(await versionCount(older)).toBe(2);
    expect(await versionCount(newer)).toBe(1);
    expect(await versionCount(STRIPE_API_VERSION)).toBe(0);
    const told = warn.mock.calls.filter(([fields]) => typeof fields === 'object' && fields !== null && 'version' in fields);
    expect(told.map(([fields]) => (fields as { version: string }).version)).toEqual([older, newer]);
    // What to change, in the line itself.
    expect(told[0][1]).toContain(`run npm run stripe:setup for a new one on ${STRIPE_API_VERSION}`);
  } finally {
    warn.mockRestore();
  }
});
