import request from 'supertest';
import { SmtpSink } from '../fakes/smtp-sink';
import { freePort, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/**
 * What on-call reads of the worker: its own /metrics (job runs by job and outcome with their
 * durations, third-party calls through the ledger by kind and outcome with their latency, the
 * Postgres pool), behind the metrics token; and the API's pool beside its other figures.
 */
const TOKEN = 'worker-metrics-test-token-0123456789';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let port = 0;

beforeAll(async () => {
  port = await freePort();
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    STRIPE_SECRET_KEY: '',
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
    .send({ email: 'metrics-buyer@example.com', name: 'Met Rics', source: 'clear', plan: 'Full Payment', amount: 997 })
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
