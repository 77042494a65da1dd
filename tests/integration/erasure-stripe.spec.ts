import request from 'supertest';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { JobProducer } from '@core/queue/job-producer';
import { planOf } from '@contracts/plans';
import { adminSignIn, type AdminSession } from './support/admin';
import { outboxDrained, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Erasing a person whose orders went through Stripe deletes the Stripe customer this system
 * created for them, once: the erasure owes the job in its transaction, the worker calls Stripe
 * (the loopback fake) through the side-effect ledger.
 */
const ADMIN = { email: 'erasure.admin@example.com', password: 'a long enough erasure password' };
const BUYER = { email: 'Erasable.Buyer@example.com', name: 'Erasable Buyer', source: 'clear' };
const CUSTOMER = 'cus_fake000000000000000001';
const spec = stripeSpecStack({ webhookSecret: 'whsec_erasuretestsecret00000000000' });
const { stripe } = spec;
let session: AdminSession;
const http = () => request(spec.stack.url);

const erase = (email: string) =>
  http().post('/api/admin/people/erase').set('cookie', session.cookie).set('x-csrf-token', session.csrfToken).send({ email });

beforeAll(async () => {
  await spec.stack.db.query('TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE');
  session = await adminSignIn(spec.stack.url, ADMIN);
});

it('deletes the Stripe customer of an erased buyer exactly once, however often its job runs', async () => {
  // Two checkouts, one customer: the second reuses the customer of the first.
  await http().post('/api/create-setup-intent').send(BUYER).expect(200);
  await http()
    .post('/api/create-payment-intent')
    .send({ ...BUYER, plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount })
    .expect(200);
  expect(await spec.stack.db.query(`SELECT DISTINCT customer_id FROM orders`)).toEqual([{ customer_id: CUSTOMER }]);
  expect(stripe.customersDeleted()).toEqual([]);
  stripe.requests.length = 0;

  await erase(BUYER.email).expect(200);
  await outboxDrained(spec.stack.db);
  expect(stripe.calls()).toEqual([`DELETE /v1/customers/${CUSTOMER}`]);
  expect(stripe.customersDeleted()).toEqual([CUSTOMER]);
  const [owed] = await spec.stack.db.query(`SELECT payload, completed_at FROM outbox WHERE job_name = $1`, [JOBS.forgetCustomer]);
  expect(owed).toEqual({ payload: { provider: 'stripe', customerId: CUSTOMER }, completed_at: expect.any(Date) });
  expect(await spec.stack.db.query(`SELECT key, status, detail FROM side_effects WHERE kind = 'forget-customer'`)).toEqual([
    { key: `forget-customer:${CUSTOMER}`, status: 'done', detail: { provider: 'stripe', result: 'deleted', outcome: 'done' } },
  ]);

  // The job handed to BullMQ again (as after Redis lost its completion) finds the ledger entry and calls nobody.
  const producer = spec.stack.api!.get(JobProducer);
  const jobId = `manual-forget-${CUSTOMER}`;
  await producer.enqueue([{ jobId, job: { name: JOBS.forgetCustomer, data: { provider: 'stripe', customerId: CUSTOMER } } }]);
  const queue = producer.queue(JOB_QUEUE[JOBS.forgetCustomer]);
  await waitFor(async () => (await queue.getJob(jobId))?.finishedOn, 'the redelivered job to finish');
  expect((await queue.getJob(jobId))!.returnvalue).toBe('already forgotten');
  expect(stripe.calls()).toEqual([`DELETE /v1/customers/${CUSTOMER}`]);
});

it('owes no provider call for a person with no customer at a provider', async () => {
  await http().post('/api/leads').send({ email: 'lead.without.orders@example.com', name: 'No Orders' }).expect(201);
  await outboxDrained(spec.stack.db);
  stripe.requests.length = 0;
  const owed = () => spec.stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE job_name = $1`, [JOBS.forgetCustomer]);
  const before = await owed();
  await erase('lead.without.orders@example.com').expect(200);
  await outboxDrained(spec.stack.db);
  expect(await owed()).toEqual(before);
  expect(stripe.calls()).toEqual([]);
});
