import { Queue, Worker } from 'bullmq';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RunningRedis, startRedis } from '../../scripts/lib/redis';
import { JOBS, QUEUES } from '@contracts/jobs';
import { freePort, resetData, Stack, startStack, waitFor } from './support/stack';
import { adminCreate } from './support/admin';

/**
 * The admin API over jobs that gave up: who may use it, what it lists, and what a retry changes
 * (the failed BullMQ job leaves, the outbox row is offered again, the audit log names the admin),
 * and what it refuses to change. No worker runs here, so a reopened row stays waiting for the
 * relay; tests/faults/retry-horizon.spec.ts follows a retry through to the provider.
 */
const ADMIN = { email: 'exhausted.jobs@example.com', password: 'an exhausted jobs admin password' };
const REASON = 'Affiliate service answered 503';
const UNAUTHENTICATED = 'Please sign in as an admin to continue.';

describe('jobs that gave up: /api/admin/exhausted-jobs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-exhausted-redis-'));
  let redis: RunningRedis;
  let stack: Stack;
  let api: ReturnType<typeof request>;
  let cookie: string;
  let csrfToken: string;
  let adminId: string;
  let queue: Queue;

  beforeAll(async () => {
    // A private Redis: the last test stops it.
    redis = await startRedis({ port: await freePort(), dir, persistent: false });
    stack = await startStack({ REDIS_URL: redis.url }, { worker: false });
    api = request(stack.url);
    queue = new Queue(QUEUES.tracking, { connection: { host: '127.0.0.1', port: redis.port } });
    await stack.db.query(`DELETE FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]);
    expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
    adminId = (await stack.db.query(`SELECT id FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]))[0].id;
    const res = await api.post('/api/admin/login').send(ADMIN).expect(200);
    cookie = ([] as string[]).concat(res.headers['set-cookie'])[0].split(';')[0];
    csrfToken = res.body.csrfToken;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(async () => {
    await queue?.close().catch(() => undefined);
    await stack?.db.query(`DELETE FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]);
    await stack?.stop();
    await redis?.stop();
  });
  beforeEach(async () => {
    await resetData(stack.db);
    await stack.db.query(`DELETE FROM admin_audit_log WHERE action = 'queue.retry'`);
    await queue.obliterate({ force: true });
  });

  /** An affiliate signup that gave up: its outbox row failed with the reason, its BullMQ job in the failed list. */
  async function gaveUp(): Promise<string> {
    const [{ id }] = await stack.db.query(
      `INSERT INTO outbox (queue, job_name, payload, dispatched_at, dispatch_count, failed_at, last_error)
       VALUES ('tracking', 'affiliate-signup', '{"leadId": "00000000-0000-4000-8000-00000000beef"}', now() - interval '3 days', 1, now(), $1)
       RETURNING id`,
      [REASON],
    );
    await queue.add(JOBS.affiliateSignup, { leadId: '00000000-0000-4000-8000-00000000beef' }, { jobId: id, attempts: 1 });
    const worker = new Worker(
      QUEUES.tracking,
      async () => {
        throw new Error(REASON);
      },
      { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } },
    );
    await waitFor(async () => (await queue.getJob(id))?.failedReason === REASON, 'the job to fail');
    await worker.close();
    return id;
  }

  const row = async (id: string) =>
    (await stack.db.query(`SELECT dispatched_at, failed_at, completed_at, last_error FROM outbox WHERE id = $1`, [id]))[0];
  const retryAudits = async () =>
    stack.db.query<unknown[]>(`SELECT admin_id, action, target FROM admin_audit_log WHERE action = 'queue.retry' ORDER BY id`);
  const retry = (id: string) => api.post(`/api/admin/exhausted-jobs/${id}/retry`).set('cookie', cookie).set('x-csrf-token', csrfToken);

  it('answers 401 without a session and 403 without the CSRF token, changing nothing', async () => {
    const id = await gaveUp();
    expect((await api.get('/api/admin/exhausted-jobs').expect(401)).body.message).toBe(UNAUTHENTICATED);
    await api.post(`/api/admin/exhausted-jobs/${id}/retry`).expect(401);
    await api.post(`/api/admin/exhausted-jobs/${id}/retry`).set('cookie', cookie).expect(403);
    expect((await row(id)).failed_at).toBeInstanceOf(Date);
    expect(await (await queue.getJob(id))!.getState()).toBe('failed');
  });

  it('lists each job that gave up with its reason, and not the ones still owed or done', async () => {
    const id = await gaveUp();
    await stack.db.query(
      `INSERT INTO outbox (queue, job_name, payload, completed_at) VALUES ('tracking', 'affiliate-signup', '{}', now()),
                                                                          ('tracking', 'affiliate-signup', '{}', NULL)`,
    );
    const res = await api.get('/api/admin/exhausted-jobs').set('cookie', cookie).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      total: 1,
      items: [
        {
          id,
          queue: 'tracking',
          job: 'affiliate-signup',
          reason: REASON,
          owedAt: expect.any(String),
          gaveUpAt: expect.any(String),
          dispatchCount: 1,
        },
      ],
    });
  });

  it('retries: the failed job leaves BullMQ, the row is offered again under its id, and the admin is in the audit log', async () => {
    const id = await gaveUp();
    expect((await retry(id).expect(200)).body).toEqual({ id, queue: 'tracking', job: 'affiliate-signup' });
    // BullMQ would ignore the relay's add while it still held the failed job under this id.
    expect(await queue.getJob(id)).toBeUndefined();
    expect(await row(id)).toMatchObject({ dispatched_at: null, failed_at: null, completed_at: null });
    expect(await retryAudits()).toEqual([{ admin_id: adminId, action: 'queue.retry', target: `job:tracking/${id}` }]);
    expect((await api.get('/api/admin/exhausted-jobs').set('cookie', cookie).expect(200)).body).toEqual({ total: 0, items: [] });
    // A second click finds nothing to retry.
    expect((await retry(id).expect(404)).body.message).toBe('No job that gave up has this id; it may have been retried already.');
    expect(await retryAudits()).toHaveLength(1);
  });

  it('answers 400 to an id that is not one, and 409 when the queue page already retried the job', async () => {
    expect((await retry('not-a-job').expect(400)).body.message).toBe('The job id is not valid');
    const id = await gaveUp();
    await (await queue.getJob(id))!.retry('failed');
    expect((await retry(id).expect(409)).body.message).toBe('This job is already queued or running again; refresh the list in a moment.');
    expect((await row(id)).failed_at).toBeInstanceOf(Date);
    expect(await retryAudits()).toEqual([]);
  });

  it('changes nothing and says so with a 503 while Redis cannot be reached', async () => {
    const id = await gaveUp();
    await queue.close();
    await redis.stop();
    const res = await retry(id).expect(503);
    expect(res.body.message).toBe('The queue cannot be reached right now, so the job was not retried. Try again in a moment.');
    expect(await row(id)).toMatchObject({ failed_at: expect.any(Date), last_error: REASON });
    expect(await retryAudits()).toEqual([]);
  });
});
