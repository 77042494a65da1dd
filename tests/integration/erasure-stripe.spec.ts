import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { JobProducer } from '@core/queue/job-producer';
import { FakeStripeServer } from '../fakes/stripe-server';
import { outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/**
 * Erasing a person whose orders went through Stripe deletes the Stripe customer this system
 * created for them, once: the erasure owes the job in its transaction, the worker calls Stripe
 * (the loopback fake) through the side-effect ledger.
 */
const CLI = join(__dirname, '..', '..', 'dist', 'scripts', 'admin-create.js');
const ADMIN = { email: 'erasure.admin@example.com', password: 'a long enough erasure password' };
const BUYER = { email: 'Erasable.Buyer@example.com', name: 'Erasable Buyer', source: 'clear' };
const CUSTOMER = 'cus_fake000000000000000001';
const stripe = new FakeStripeServer();
let stack: Stack;
let cookie = '';
let csrfToken = '';
const http = () => request(stack.url);

function adminCreate(email: string, password: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--email', email], { env: { ...process.env, DATA_DIR: '/nonexistent' }, stdio: 'pipe' });
    child.once('error', reject);
    child.once('exit', resolve);
    child.stdin.end(`${password}\n`);
  });
}

const erase = (email: string) =>
  http().post('/api/admin/people/erase').set('cookie', cookie).set('x-csrf-token', csrfToken).send({ email });

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build:server" first`);
  await stripe.start();
  stack = await startStack({
    STRIPE_SECRET_KEY: 'sk_test_fakekey',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fakekey',
    STRIPE_WEBHOOK_SECRET: 'whsec_erasuretestsecret00000000000',
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
  });
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, admin_accounts, admin_sessions, admin_audit_log CASCADE');
  expect(await adminCreate(ADMIN.email, ADMIN.password)).toBe(0);
  const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
  cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
  csrfToken = login.body.csrfToken;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await stripe.stop();
});

it('deletes the Stripe customer of an erased buyer exactly once, however often its job runs', async () => {
  // Two checkouts, one customer: the second reuses the customer of the first.
  await http().post('/api/create-setup-intent').send(BUYER).expect(200);
  await http()
    .post('/api/create-payment-intent')
    .send({ ...BUYER, plan: 'Full Payment', amount: 997 })
    .expect(200);
  expect(await stack.db.query(`SELECT DISTINCT customer_id FROM orders`)).toEqual([{ customer_id: CUSTOMER }]);
  expect(stripe.customersDeleted()).toEqual([]);
  stripe.requests.length = 0;

  await erase(BUYER.email).expect(200);
  await outboxDrained(stack.db);
  expect(stripe.calls()).toEqual([`DELETE /v1/customers/${CUSTOMER}`]);
  expect(stripe.customersDeleted()).toEqual([CUSTOMER]);
  const [owed] = await stack.db.query(`SELECT payload, completed_at FROM outbox WHERE job_name = $1`, [JOBS.forgetCustomer]);
  expect(owed).toEqual({ payload: { provider: 'stripe', customerId: CUSTOMER }, completed_at: expect.any(Date) });
  expect(await stack.db.query(`SELECT key, status, detail FROM side_effects WHERE kind = 'forget-customer'`)).toEqual([
    { key: `forget-customer:${CUSTOMER}`, status: 'done', detail: { provider: 'stripe', result: 'deleted', outcome: 'done' } },
  ]);

  // The job handed to BullMQ again (as after Redis lost its completion) finds the ledger entry and calls nobody.
  const producer = stack.api!.get(JobProducer);
  const jobId = `manual-forget-${CUSTOMER}`;
  await producer.enqueue([{ jobId, job: { name: JOBS.forgetCustomer, data: { provider: 'stripe', customerId: CUSTOMER } } }]);
  const queue = producer.queue(JOB_QUEUE[JOBS.forgetCustomer]);
  await waitFor(async () => (await queue.getJob(jobId))?.finishedOn, 'the redelivered job to finish');
  expect((await queue.getJob(jobId))!.returnvalue).toBe('already forgotten');
  expect(stripe.calls()).toEqual([`DELETE /v1/customers/${CUSTOMER}`]);
});

it('owes no provider call for a person with no customer at a provider', async () => {
  await http().post('/api/leads').send({ email: 'lead.without.orders@example.com', name: 'No Orders' }).expect(201);
  await outboxDrained(stack.db);
  stripe.requests.length = 0;
  const owed = () => stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE job_name = $1`, [JOBS.forgetCustomer]);
  const before = await owed();
  await erase('lead.without.orders@example.com').expect(200);
  await outboxDrained(stack.db);
  expect(await owed()).toEqual(before);
  expect(stripe.calls()).toEqual([]);
});
