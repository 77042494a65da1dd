import { Queue, Worker } from 'bullmq';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RunningRedis, startRedis } from '../../scripts/lib/redis';
import { JOBS, QUEUES } from '@contracts/jobs';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import { adminCreate } from './support/admin';
import { freePort, resetData, Stack, startStack, waitFor } from './support/stack';

const ADMIN = { email: 'ops.tester@example.com', password: 'an ops admin password' };
const METRICS_TOKEN = 'ops-spec-metrics-token-0123456789abcdef';
const UNAUTHENTICATED = 'Please sign in as an admin to continue.';

/** The value of one sample in Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',');
    if (wanted.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('operations: the queue dashboard and /api/metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-ops-redis-'));
  let redis: RunningRedis;
  let stack: Stack;
  let api: ReturnType<typeof request>;
  let cookie: string;
  let origin: string;
  let adminId: string;

  beforeAll(async () => {
    // A private Redis: these tests fail jobs on purpose and finally stop it.
    redis = await startRedis({ port: await freePort(), dir, persistent: false });
    stack = await startStack({ REDIS_URL: redis.url, METRICS_TOKEN, METRICS_SOURCE_TIMEOUT_MS: '500' }, { worker: false });
    api = request(stack.url);
    origin = new URL(stack.url).origin;
    await resetData(stack.db);
    // The job totals outlive the outbox rows they counted: earlier specs' jobs are not this one's.
    await stack.db.query('TRUNCATE outbox_outcome_totals');
    await stack.db.query(`DELETE FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]);
    expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
    adminId = (await stack.db.query(`SELECT id FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]))[0].id;
    const res = await api.post('/api/admin/login').send(ADMIN).expect(200);
    cookie = ([] as string[]).concat(res.headers['set-cookie'])[0].split(';')[0];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(async () => {
    await stack?.db.query(`DELETE FROM admin_accounts WHERE email_normalized = $1`, [ADMIN.email]);
    await stack?.stop();
    await redis?.stop();
  });

  /** A job that ran once in a throwaway consumer and failed with `message`. */
  async function failedJob(message: string): Promise<string> {
    const queue = new Queue(QUEUES.tracking, { connection: { host: '127.0.0.1', port: redis.port } });
    const job = await queue.add(JOBS.affiliateSignup, { leadId: '00000000-0000-4000-8000-00000000beef' }, { attempts: 1 });
    const worker = new Worker(
      QUEUES.tracking,
      async () => {
        throw new Error(message);
      },
      { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } },
    );
    await waitFor(
      async () => (await job.getState()) === 'failed' || (await queue.getJob(job.id!))?.failedReason === message,
      'the job to fail',
    );
    await worker.close();
    await queue.close();
    return job.id!;
  }

  const auditRows = async (): Promise<{ admin_id: string; action: string; target: string }[]> =>
    stack.db.query(`SELECT admin_id, action, target FROM admin_audit_log WHERE action LIKE 'queue.%' ORDER BY id`);

  describe('/admin/queues', () => {
    it('sends a signed-out browser to the sign-in page, which comes back to the dashboard', async () => {
      const res = await api.get('/admin/queues').set('accept', 'text/html,application/xhtml+xml').expect(302);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fqueues');
      const deep = await api.get('/admin/queues/queue/tracking').set('accept', 'text/html').expect(302);
      expect(deep.headers.location).toBe('/admin/login?next=%2Fadmin%2Fqueues%2Fqueue%2Ftracking');
    });

    it.each([
      ['GET', '/admin/queues/api/queues'],
      ['GET', '/admin/queues/api/redis/stats'],
      ['PUT', '/admin/queues/api/queues/tracking/retry/failed'],
      ['PUT', '/admin/queues/api/queues/tracking/clean/failed'],
    ])('answers %s %s with 401 without a session', async (method, path) => {
      const res = await (method === 'GET' ? api.get(path) : api.put(path).set('origin', origin)).set('cookie', 'admin_session=forged');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, message: UNAUTHENTICATED });
    });

    it('serves the dashboard page under the admin CSP, and the site keeps its own', async () => {
      const page = await api.get('/admin/queues').set('cookie', cookie).set('accept', 'text/html').expect(200);
      expect(page.text).toContain('<base href="/admin/queues/"');
      const csp = page.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('js.stripe.com');
      const script = /src="(static\/js\/main[^"]+)"/.exec(page.text)![1];
      await api
        .get(`/admin/queues/${script}`)
        .set('cookie', cookie)
        .expect(200)
        .expect('content-type', /javascript/);
      const site = await api.get('/api/health').expect(200);
      expect(site.headers['content-security-policy']).toContain('https://js.stripe.com');
    });

    it('lists every queue with its counts, and a failed job with its error', async () => {
      const jobId = await failedJob('affiliate service said no');
      const res = await api
        .get('/admin/queues/api/queues')
        .query({ activeQueue: QUEUES.tracking, status: 'failed', page: 1 })
        .set('cookie', cookie)
        .expect(200);
      const queues: { name: string; counts: Record<string, number>; jobs: { id: string; failedReason: string }[] }[] = res.body.queues;
      expect(queues.map((queue) => queue.name).sort()).toEqual(Object.values(QUEUES).sort());
      const tracking = queues.find((queue) => queue.name === QUEUES.tracking)!;
      expect(tracking.counts.failed).toBeGreaterThanOrEqual(1);
      expect(tracking.jobs).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: jobId, failedReason: 'affiliate service said no' })]),
      );
    });

    it('retries a failed job for a signed-in admin on this site and audits it', async () => {
      const jobId = await failedJob('temporary outage');
      await api
        .put(`/admin/queues/api/queues/tracking/${jobId}/retry`)
        .set('cookie', cookie)
        .set('origin', origin)
        .set('sec-fetch-site', 'same-origin')
        .expect(204);
      const queue = new Queue(QUEUES.tracking, { connection: { host: '127.0.0.1', port: redis.port } });
      expect(await (await queue.getJob(jobId))!.getState()).toBe('waiting');
      await queue.close();
      expect(await auditRows()).toContainEqual({ admin_id: adminId, action: 'queue.retry', target: `job:tracking/${jobId}` });
    });

    it('cleans the failed jobs of a queue and audits it', async () => {
      await failedJob('to be cleaned');
      await api
        .put('/admin/queues/api/queues/tracking/clean/failed')
        .set('cookie', cookie)
        .set('sec-fetch-site', 'same-origin')
        .expect(200);
      expect(await auditRows()).toContainEqual({ admin_id: adminId, action: 'queue.clean', target: 'queue:tracking/failed' });
    });

    it.each([
      ['another origin', () => ({ origin: 'https://evil.example' })],
      ['a cross-site fetch', () => ({ origin, 'sec-fetch-site': 'cross-site' })],
      ['no sign of its origin', () => ({})],
    ])('refuses a retry from %s with 403, leaving the job failed and nothing audited', async (_what, headers) => {
      const jobId = await failedJob('still failed');
      const before = (await auditRows()).length;
      const res = await api.put(`/admin/queues/api/queues/tracking/${jobId}/retry`).set('cookie', cookie).set(headers()).expect(403);
      expect(res.body.message).toMatch(/Cross-site requests/);
      const queue = new Queue(QUEUES.tracking, { connection: { host: '127.0.0.1', port: redis.port } });
      expect(await (await queue.getJob(jobId))!.getState()).toBe('failed');
      await queue.close();
      expect(await auditRows()).toHaveLength(before);
    });

    it('refuses writes that would bypass the outbox or drop accepted work', async () => {
      const queue = new Queue(QUEUES.tracking, { connection: { host: '127.0.0.1', port: redis.port } });
      const waiting = await queue.add(JOBS.affiliateSignup, { leadId: '00000000-0000-4000-8000-00000000cafe' });
      const headers = { cookie, origin };
      await api.post('/admin/queues/api/queues/tracking/add').set(headers).send({ name: JOBS.affiliateSignup, data: {} }).expect(403);
      await api.put('/admin/queues/api/queues/tracking/obliterate').set(headers).expect(403);
      await api.put('/admin/queues/api/queues/tracking/empty').set(headers).expect(403);
      await api.put('/admin/queues/api/queues/tracking/clean/waiting').set(headers).expect(403);
      await api.put('/admin/queues/api/queues/tracking/retry/completed').set(headers).expect(403);
      expect(await (await queue.getJob(waiting.id!))!.getState()).toBe('waiting');
      await queue.close();
    });
  });

  describe('/api/metrics', () => {
    it('answers 401 without credentials or with a wrong token', async () => {
      await api.get('/api/metrics').expect(401);
      await api.get('/api/metrics').set('authorization', 'Bearer not-the-token-not-the-token-0000').expect(401);
      await api.get('/api/metrics').set('authorization', METRICS_TOKEN).expect(401);
      await api.get('/api/metrics').set('cookie', 'admin_session=forged').expect(401);
    });

    it('answers the bearer token and an admin session in Prometheus text format', async () => {
      const scraped = await api.get('/api/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      expect(scraped.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const byAdmin = await api.get('/api/metrics').set('cookie', cookie).expect(200);
      expect(byAdmin.text).toContain('# TYPE funnel_http_requests_total counter');
    });

    it('counts requests per route template, and reports queue depths, outbox lag and job outcomes', async () => {
      for (const email of ['metrics-1@example.com', 'metrics-2@example.com'])
        await api.post('/api/leads').send({ email, referral: 'partner7' }).expect(201);
      await api.get(`/api/validate-token/${'x'.repeat(40)}`);
      // No worker runs here, so the leads' jobs wait in the outbox.
      await new Promise((r) => setTimeout(r, 1100));
      // Jobs stamped as a worker stamps them, each counted once however often it is stamped. A row
      // merely lying in the outbox finished is not counted: the scrape never scans the outbox.
      const outbox = stack.api!.get(OutboxRepository);
      const paid = await stack.db.query(
        `INSERT INTO outbox (queue, job_name, payload, dispatched_at) VALUES ('payments', 'order-paid', '{}', now()), ('payments', 'order-paid', '{}', now()) RETURNING id`,
      );
      await outbox.markCompleted(paid.map((row: { id: string }) => row.id));
      await outbox.markCompleted(paid.map((row: { id: string }) => row.id));
      const [invitation] = await stack.db.query(
        `INSERT INTO outbox (queue, job_name, payload, dispatched_at) VALUES ('invitations', 'invitation-email', '{}', now()) RETURNING id`,
      );
      await outbox.markFailed(invitation.id, 'SMTP refused');
      await outbox.markFailed(invitation.id, 'SMTP refused again');
      await stack.db.query(
        `INSERT INTO outbox (queue, job_name, payload, completed_at) VALUES ('tracking', 'affiliate-signup', '{}', now())`,
      );

      const text = (await api.get('/api/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
      expect(sample(text, 'funnel_http_requests_total', { method: 'POST', route: '/api/leads', status_class: '2xx' })).toBe(2);
      expect(sample(text, 'funnel_http_request_duration_seconds_count', { method: 'POST', route: '/api/leads', status_class: '2xx' })).toBe(
        2,
      );
      expect(sample(text, 'funnel_http_request_duration_seconds_bucket', { method: 'POST', route: '/api/leads', le: '+Inf' })).toBe(2);
      expect(text).not.toContain('metrics-1');
      expect(text).not.toContain('x'.repeat(40));
      for (const queue of Object.values(QUEUES)) {
        for (const state of ['waiting', 'active', 'delayed', 'failed'])
          expect(sample(text, 'funnel_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
      }
      expect(sample(text, 'funnel_queue_jobs', { queue: 'tracking', state: 'failed' })).toBeGreaterThanOrEqual(3);
      expect(sample(text, 'funnel_outbox_pending', { queue: 'tracking', state: 'undispatched' })).toBe(2);
      expect(sample(text, 'funnel_outbox_lag_seconds', { queue: 'tracking' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'funnel_outbox_lag_seconds', { queue: 'tracking' })).toBeLessThan(60);
      expect(sample(text, 'funnel_outbox_lag_seconds', { queue: 'payments' })).toBe(0);
      expect(sample(text, 'funnel_outbox_unhandled', { queue: 'tracking' })).toBe(0);
      expect(sample(text, 'funnel_jobs_total', { job: 'order-paid', outcome: 'completed' })).toBe(2);
      expect(sample(text, 'funnel_jobs_total', { job: 'invitation-email', outcome: 'failed' })).toBe(1);
      expect(sample(text, 'funnel_jobs_total', { job: 'affiliate-signup', outcome: 'completed' })).toBe(0);
      expect(sample(text, 'funnel_metrics_source_up', { source: 'redis' })).toBe(1);
      expect(sample(text, 'funnel_metrics_source_up', { source: 'postgres' })).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    });

    it('still answers quickly while Redis is stopped, leaving the queue depths out and saying so', async () => {
      await redis.stop();
      const started = Date.now();
      const text = (await api.get('/api/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(sample(text, 'funnel_metrics_source_up', { source: 'redis' })).toBe(0);
      expect(sample(text, 'funnel_metrics_source_up', { source: 'postgres' })).toBe(1);
      expect(sample(text, 'funnel_queue_jobs', { queue: 'tracking' })).toBeUndefined();
      expect(sample(text, 'funnel_outbox_pending', { queue: 'tracking', state: 'undispatched' })).toBe(2);
      expect(sample(text, 'funnel_http_requests_total', { method: 'POST', route: '/api/leads', status_class: '2xx' })).toBe(2);
    });
  });
});
