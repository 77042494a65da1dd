import { Queue } from 'bullmq';
import { QUEUES } from '@contracts/jobs';
import { doorSummary, onceEach } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { redisOptionsFromUrl } from '@core/queue/redis-options';
import { adminCreate } from '../integration/support/admin';
import { ApiProcess, AppProcess, FaultStack } from './support/fault-stack';
import { postJson, waitFor } from './support/traffic';

/**
 * The affiliate service is down for longer than ten attempts used to last. Jobs keep retrying
 * (the backoff capped, not doubling forever) until their horizon, so the signup happens exactly
 * once when the service is back. With a short horizon the job gives up instead: it shows on the
 * admin's list of jobs that gave up (and on the queue page's failed list) with its reason, and
 * the admin's one-click retry, audited, delivers it exactly once under the same job id.
 */
const ADMIN = { email: 'horizon.admin@example.com', password: 'a horizon admin password' };
const BACKOFF_MS = 20;
const BACKOFF_MAX_MS = 400;
/** The longest ten attempts could take before: nine waits of 20·2^(k-1) ms, ≈ 10.2 s. */
const OLD_HORIZON_MS = BACKOFF_MS * (2 ** 9 - 1);
const SHORT_HORIZON_S = 2;

const affiliate = new FakeAffiliateServer();
let stack: FaultStack;
let api: ApiProcess;
let worker: AppProcess;
let env: NodeJS.ProcessEnv;
let counter = 0;

const down = () => affiliate.failNextRequests(Number.POSITIVE_INFINITY, 503);
const backUp = () => affiliate.failNextRequests(0);

async function postLead(): Promise<{ email: string; leadId: string; jobId: string }> {
  const email = `horizon-${++counter}@example.com`;
  expect((await postJson(`${api.url}/api/leads`, { email, name: 'Horizon Lead', referral: 'partner7' })).status).toBe(201);
  const { rows } = await stack.db.query(
    `SELECT l.id AS lead_id, o.id AS job_id FROM leads l
       JOIN outbox o ON o.job_name = 'affiliate-signup' AND o.payload ->> 'leadId' = l.id::text
      WHERE l.email_normalized = $1`,
    [email],
  );
  return { email, leadId: rows[0].lead_id, jobId: rows[0].job_id };
}

const attemptsFor = (email: string) => affiliate.signupAttempts().filter((a) => a.params.email === email);
const signupsAtDoorFor = (email: string) => doorSummary(affiliate.signupsAtDoor().filter((a) => a.identity === email));
const outboxRow = async (id: string) =>
  (await stack.db.query(`SELECT created_at, completed_at, failed_at, last_error FROM outbox WHERE id = $1`, [id])).rows[0];
/** The worker stamps completion in batches after the effect is recorded, so it may trail the lead. */
const stampedCompleted = (id: string) => waitFor(async () => (await outboxRow(id)).completed_at, 'the job to be stamped completed', 10_000);
const leadSent = async (email: string) =>
  (await stack.db.query(`SELECT affiliate_status FROM leads WHERE email_normalized = $1`, [email])).rows[0].affiliate_status === 'sent';

beforeAll(async () => {
  stack = await FaultStack.start('horizon');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  env = await stack.env({
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'fault-key',
    JOB_BACKOFF_MS: String(BACKOFF_MS),
    JOB_BACKOFF_MAX_MS: String(BACKOFF_MAX_MS),
  });
  api = await stack.startApi(env);
  worker = stack.startWorker(env);
});

afterAll(() => stack?.undoAll());

it('keeps a signup owed through an outage longer than ten attempts used to last, then sends it once', async () => {
  down();
  const lead = await postLead();
  // Condition-based: many more attempts than ten (the capped backoff keeps them coming) over more
  // time than ten attempts could ever take. Without the horizon the job stops at its tenth.
  await waitFor(
    () => {
      const attempts = attemptsFor(lead.email);
      return attempts.length >= 25 && Date.now() - attempts[0].at > OLD_HORIZON_MS + 1000;
    },
    'the signup to keep retrying past the old ten-attempt horizon',
    90_000,
  );
  expect(await outboxRow(lead.jobId)).toMatchObject({ completed_at: null, failed_at: null });

  backUp();
  await waitFor(() => leadSent(lead.email), 'the signup once the service is back', 30_000);
  expect(signupsAtDoorFor(lead.email)).toEqual(onceEach(1));
  expect(new Set(attemptsFor(lead.email).map((a) => a.idempotencyKey))).toEqual(new Set([`affiliate-signup:${lead.leadId}`]));
  await stampedCompleted(lead.jobId);
  expect(await outboxRow(lead.jobId)).toMatchObject({ completed_at: expect.any(Date), failed_at: null });
});

it('with a short horizon the job gives up, shows with its reason, and the audited one-click retry sends it once', async () => {
  await worker.release();
  worker = stack.startWorker({ ...env, JOB_RETRY_HORIZON_S: String(SHORT_HORIZON_S) }, 'Worker (short horizon)');

  down();
  const lead = await postLead();
  await waitFor(async () => (await outboxRow(lead.jobId)).failed_at, 'the job to give up', 30_000);
  const gaveUp = await outboxRow(lead.jobId);
  // Only once its horizon had passed since it was owed, after retrying all along.
  expect(gaveUp.failed_at.getTime() - gaveUp.created_at.getTime()).toBeGreaterThanOrEqual(SHORT_HORIZON_S * 1000);
  expect(attemptsFor(lead.email).length).toBeGreaterThan(1);
  expect(gaveUp.last_error).toBe('Affiliate service answered 503');
  expect(signupsAtDoorFor(lead.email)).toEqual({ done: 0, undone: 1, repeats: 0 });

  expect(await adminCreate(ADMIN.email, ADMIN.password, env)).toMatchObject({ code: 0 });
  const login = await fetch(`${api.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const { csrfToken } = (await login.json()) as { csrfToken: string };

  // The admin's list of jobs that gave up, and the queue page's failed list, both with the reason.
  const listed = await fetch(`${api.url}/api/admin/exhausted-jobs`, { headers: { cookie } });
  expect(listed.status).toBe(200);
  expect(await listed.json()).toEqual({
    total: 1,
    items: [
      expect.objectContaining({
        id: lead.jobId,
        queue: QUEUES.tracking,
        job: 'affiliate-signup',
        reason: 'Affiliate service answered 503',
      }),
    ],
  });
  const board = await fetch(`${api.url}/admin/queues/api/queues?activeQueue=${QUEUES.tracking}&status=failed&page=1`, {
    headers: { cookie },
  });
  const tracking = (
    (await board.json()) as { queues: Array<{ name: string; jobs: Array<{ id: string; failedReason: string }> }> }
  ).queues.find((queue) => queue.name === QUEUES.tracking);
  expect(tracking?.jobs).toContainEqual(expect.objectContaining({ id: lead.jobId, failedReason: 'Affiliate service answered 503' }));

  backUp();
  const retry = await fetch(`${api.url}/api/admin/exhausted-jobs/${lead.jobId}/retry`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken },
  });
  expect(retry.status).toBe(200);
  expect(await retry.json()).toEqual({ id: lead.jobId, queue: QUEUES.tracking, job: 'affiliate-signup' });

  await waitFor(() => leadSent(lead.email), 'the retried signup', 30_000);
  expect(signupsAtDoorFor(lead.email)).toEqual(onceEach(1));
  await stampedCompleted(lead.jobId);
  expect(await outboxRow(lead.jobId)).toMatchObject({ completed_at: expect.any(Date), failed_at: null });
  // The same job id ran again (the outbox id), with the same idempotency key.
  const queue = new Queue(QUEUES.tracking, { connection: redisOptionsFromUrl(stack.redisUrl) });
  expect(await (await queue.getJob(lead.jobId))?.getState()).toBe('completed');
  await queue.close();
  expect(new Set(attemptsFor(lead.email).map((a) => a.idempotencyKey))).toEqual(new Set([`affiliate-signup:${lead.leadId}`]));
  const audit = await stack.db.query(
    `SELECT a.email, l.action, l.target FROM admin_audit_log l JOIN admin_accounts a ON a.id = l.admin_id WHERE l.action = 'queue.retry'`,
  );
  expect(audit.rows).toEqual([{ email: ADMIN.email, action: 'queue.retry', target: `job:${QUEUES.tracking}/${lead.jobId}` }]);

  // Nothing left to retry: a second click changes nothing.
  const again = await fetch(`${api.url}/api/admin/exhausted-jobs/${lead.jobId}/retry`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken },
  });
  expect(again.status).toBe(404);
  expect(await (await fetch(`${api.url}/api/admin/exhausted-jobs`, { headers: { cookie } })).json()).toEqual({ total: 0, items: [] });
});
