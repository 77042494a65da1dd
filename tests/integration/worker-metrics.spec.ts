import request from 'supertest';
import { planOf } from '@contracts/plans';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminSignIn } from './support/admin';
import { sendSignedWebhook } from './support/payments';
import { freePort, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * What on-call reads of the worker: its own /metrics (job runs by job and outcome with their
 * durations, third-party calls through the ledger by kind and outcome with their latency, the
 * Postgres pool), behind the metrics token; and the API's pool beside its other figures.
 */
const TOKEN = 'worker-metrics-test-token-0123456789';
const WEBHOOK_SECRET = 'whsec_workermetricssecret00000000';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let port = 0;

beforeAll(async () => {
  port = await freePort();
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    STRIPE_SECRET_KEY: '',
    SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
    METRICS_TOKEN: TOKEN,
    WORKER_METRICS_PORT: String(port),
    JOB_RETRY_HORIZON_S: '120',
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  smtp.reset();
});

const scrape = async (authorization?: string) =>
  fetch(`http://127.0.0.1:${port}/metrics`, { headers: authorization ? { authorization } : {} });

/** The value of one series in Prometheus text, 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

it("counts the worker's job runs and ledger calls, with their durations and the pool, for the token only", async () => {
  const res = await request(stack.url)
    .post('/api/create-payment-intent')
    .send({ email: 'metrics-buyer@example.com', name: 'Met Rics', source: 'clear', plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount })
    .expect(200);
  await request(stack.url)
    .post('/api/sandbox/confirm-payment')
    .send({ clientSecret: res.body.clientSecret, card, returnUrl: `${stack.url}/success` })
    .expect(200);
  await waitFor(() => smtp.messages.length === 1, 'the receipt');
  await outboxDrained(stack.db);

  expect((await scrape()).status).toBe(401);
  expect((await scrape('Bearer not-the-token-at-all-000000')).status).toBe(401);
  const answer = await scrape(`Bearer ${TOKEN}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/plain');
  const text = await answer.text();
  expect(valueOf(text, 'funnel_worker_job_runs_total{job="order-paid",outcome="done"}')).toBeGreaterThanOrEqual(1);
  expect(valueOf(text, 'funnel_worker_job_duration_seconds_count{job="order-paid"}')).toBeGreaterThanOrEqual(1);
  expect(valueOf(text, 'funnel_provider_calls_total{kind="receipt-email",outcome="done"}')).toBe(1);
  expect(valueOf(text, 'funnel_provider_call_duration_seconds_count{kind="receipt-email"}')).toBe(1);
  expect(text).toMatch(/^funnel_db_pool_connections\{state="total"\} [1-9]/m);
  expect(text).not.toContain('metrics-buyer');

  const api = await request(stack.url).get('/api/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200);
  expect(api.text).toMatch(/^funnel_db_pool_connections\{state="idle"\} \d+/m);
});

it('counts the money path: intents and webhooks in the API, payments and declines by reason in the worker', async () => {
  const apiMetrics = async () => (await request(stack.url).get('/api/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200)).text;
  const workerMetrics = async () => (await scrape(`Bearer ${TOKEN}`)).text();
  const before = { api: await apiMetrics(), worker: await workerMetrics() };
  const delta = (now: string, then: string, series: string) => valueOf(now, series) - valueOf(then, series);

  for (const [email, number] of [
    ['paid-metrics@example.com', '4242424242424242'],
    ['declined-metrics@example.com', '4000000000000002'],
  ]) {
    const res = await request(stack.url)
      .post('/api/create-payment-intent')
      .send({ email, name: 'Met Rics', source: 'clear', plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount })
      .expect(200);
    await request(stack.url)
      .post('/api/sandbox/confirm-payment')
      .send({ clientSecret: res.body.clientSecret, card: { ...card, number }, returnUrl: `${stack.url}/success` });
  }
  await request(stack.url).post('/api/webhooks/stripe').set('Stripe-Signature', 't=1,v1=forged').send({ id: 'evt_x' }).expect(400);
  // The sandbox stores its own events without a delivery: a signed delivery of a new event is
  // stored once, and the same delivery again is a duplicate.
  const [sandboxEvent] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'payment_intent.created' LIMIT 1`);
  for (let i = 0; i < 2; i++) await sendSignedWebhook(stack.url, WEBHOOK_SECRET, { ...sandboxEvent.payload, id: 'evt_metrics_signed' });
  await outboxDrained(stack.db);
  await waitFor(
    async () => delta(await workerMetrics(), before.worker, 'funnel_payments_total{outcome="failed",reason="generic_decline"}') === 1,
    'the decline counted',
  );

  // An admin refunds the paid one: the worker counts the refund once its effects start.
  const admin = await adminSignIn(stack.url, { email: 'metrics.admin@example.com', password: 'a metrics admin password' });
  const [payment] = await stack.db.query(
    `SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.email = 'paid-metrics@example.com'`,
  );
  await request(stack.url)
    .post(`/api/admin/billing/payments/${payment.id}/refunds`)
    .set('cookie', admin.cookie)
    .set('x-csrf-token', admin.csrfToken)
    .send({ requestKey: '0f5c2d6e-8a41-4b7e-9c3d-51e2a7b9c004' })
    .expect(200);
  await waitFor(
    async () => delta(await workerMetrics(), before.worker, 'funnel_refunds_total{reason="refund"}') === 1,
    'the refund counted',
  );
  await outboxDrained(stack.db);

  const after = { api: await apiMetrics(), worker: await workerMetrics() };
  expect(delta(after.worker, before.worker, 'funnel_refunds_total{reason="refund"}')).toBe(1);
  expect(delta(after.api, before.api, 'funnel_checkout_intents_total{kind="payment"}')).toBe(2);
  expect(delta(after.api, before.api, 'funnel_payment_webhooks_total{outcome="refused"}')).toBe(1);
  expect(delta(after.api, before.api, 'funnel_payment_webhooks_total{outcome="stored"}')).toBe(1);
  expect(delta(after.api, before.api, 'funnel_payment_webhooks_total{outcome="duplicate"}')).toBe(1);
  expect(delta(after.worker, before.worker, 'funnel_payments_total{outcome="succeeded",reason=""}')).toBe(1);
  expect(delta(after.worker, before.worker, 'funnel_payments_total{outcome="failed",reason="generic_decline"}')).toBe(1);
});
