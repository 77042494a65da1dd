import { planOf } from '@contracts/plans';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { ApiProcess, FaultStack, signalAndWait } from './support/fault-stack';
import { leadStream, postJson, callsWithoutClaim, signupTally, sleep, waitFor } from './support/traffic';
import { doorSummary, exactlyOnceProblems } from '../fakes/exactly-once';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * The worker is killed (SIGKILL) while it works through leads, invitation e-mails and paid
 * orders, and started again. Every job completes, and the fakes see each effect once: one signup
 * per lead (a resend after the kill carries the same key), one invitation e-mail per invitee
 * and one receipt and one affiliate sale per order (a resend keeps its Message-ID).
 */
const affiliate = new FakeAffiliateServer();
const smtp = new SmtpSink();
let stack: FaultStack;
let api: ApiProcess;
let env: NodeJS.ProcessEnv;

const LEADS = 60;
const INVITES = 10;
const PAYMENTS = 3;

beforeAll(async () => {
  stack = await FaultStack.start('worker');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  await smtp.start();
  stack.life.own('SMTP sink', () => smtp.stop());
  env = await stack.env({
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'fault-key',
    SMTP_URL: smtp.url,
    INVITATION_DELIVERY: 'email',
    STRIPE_SECRET_KEY: '',
    VERIFY_REFRESH_MS: '600000',
    WORKER_CONCURRENCY: '5',
    TRACKING_CONCURRENCY: '5',
  });
  api = await stack.startApi(env);
});

afterAll(() => stack?.undoAll());

const count = async (sql: string) => (await stack.db.query(sql)).rows[0].n as number;

/**
 * Pays one sandbox order recorded as live (sandbox orders are test orders, which make no sale;
 * checkout records an order live with a Stripe live key); resolves with its payment id (the
 * affiliate sale's event id).
 */
async function pay(i: number): Promise<string> {
  const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
  const intent = await postJson(`${api.url}/api/create-payment-intent`, {
    email: `buyer-${i}@example.com`,
    name: 'Fault Buyer',
    source: 'clear',
    referral: 'partner7',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  });
  expect(intent.status).toBe(200);
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [`buyer-${i}@example.com`]);
  const { clientSecret } = intent.body as { clientSecret: string };
  expect((await postJson(`${api.url}/api/sandbox/confirm-payment`, { clientSecret, card, returnUrl: `${api.url}/success` })).status).toBe(
    200,
  );
  return clientSecret.split('_secret_')[0];
}

it('completes every job after a SIGKILL mid-batch, and no fake sees an effect twice', async () => {
  // Slow answers keep jobs in flight when the kill lands.
  affiliate.answerLate(100);
  const posted = await leadStream(api.url, { prefix: 'worker-kill', concurrency: 4, count: LEADS });
  expect(posted.filter((p) => p.outcome.status !== 201)).toEqual([]);
  for (let i = 0; i < INVITES; i++) {
    expect((await postJson(`${api.url}/api/invitation-gate`, { name: 'Fault Guest', email: `guest-${i}@example.com` })).status).toBe(201);
  }
  const paymentIds: string[] = [];
  for (let i = 0; i < PAYMENTS; i++) paymentIds.push(await pay(i));

  const first = stack.startWorker(env, 'Worker 1');
  await waitFor(() => affiliate.signupAttempts().length >= 10, 'the worker busy with signups', 30_000, 20);
  expect(await signalAndWait(first, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
  await first.release();
  await sleep(500);
  stack.startWorker(env, 'Worker 2');

  await waitFor(
    async () =>
      (await count(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`)) === 0 &&
      (await count(
        `SELECT count(*)::int AS n FROM orders WHERE paid_effects->>'receipt-email' = 'sent' AND paid_effects->>'affiliate-sale' = 'sent'`,
      )) === PAYMENTS,
    'every owed job done after the restart',
    90_000,
    250,
  );

  expect(await count(`SELECT count(*)::int AS n FROM outbox WHERE failed_at IS NOT NULL`)).toBe(0);
  expect(await count(`SELECT count(*)::int AS n FROM leads WHERE affiliate_status = 'sent'`)).toBe(LEADS);
  const tally = signupTally(affiliate);
  expect(tally.size).toBe(LEADS);
  expect([...tally.values()].filter((t) => t.ok + t.lost !== 1)).toEqual([]);
  expect(affiliate.signups()).toHaveLength(LEADS);
  expect(affiliate.sales()).toHaveLength(PAYMENTS);
  // Counted at the fakes' door: a send after the sender was told "done" is a repeat. Only a job
  // in flight when the kill landed (answered, but not yet recorded) may be sent again, and it
  // carries its key, so at most one concurrency's worth per queue.
  const inFlight = Number(env.WORKER_CONCURRENCY);
  expect(
    exactlyOnceProblems(
      affiliate.signupsAtDoor(),
      posted.map((p) => p.email),
      Number(env.TRACKING_CONCURRENCY),
    ),
  ).toEqual([]);
  expect(exactlyOnceProblems(affiliate.salesAtDoor(), paymentIds, inFlight)).toEqual([]);
  expect(await callsWithoutClaim(affiliate, stack.db)).toEqual([]);
  const mails = doorSummary(smtp.deliveriesAtDoor());
  expect(mails).toMatchObject({ done: INVITES + PAYMENTS, undone: 0 });
  expect(mails.repeats).toBeLessThanOrEqual(inFlight);

  // One Message-ID per invitee and per order; a resend after the kill would reuse it, a duplicate would not.
  const idsByRecipient = new Map<string, Set<string>>();
  for (const m of smtp.messages) {
    const to = m.envelope.to.join(',');
    idsByRecipient.set(to, (idsByRecipient.get(to) ?? new Set()).add(String(m.messageId)));
  }
  expect(idsByRecipient.size).toBe(INVITES + PAYMENTS);
  expect([...idsByRecipient.entries()].filter(([, ids]) => ids.size !== 1)).toEqual([]);
  // Only a message in flight at the kill may arrive twice (SMTP has no idempotency key).
  expect(smtp.messages.length - (INVITES + PAYMENTS)).toBeLessThanOrEqual(Number(env.WORKER_CONCURRENCY));
});
