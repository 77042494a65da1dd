import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import Redis from 'ioredis';
import { QUEUES } from '@contracts/jobs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RunningRedis, startRedis } from '../../scripts/lib/redis';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { freePort, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** Each test gets its own redis-server so it can stop, restart or wipe it. */
describe('outbox: nothing accepted is lost, nothing is sent twice', () => {
  const affiliate = new FakeAffiliateServer();
  let redis: RunningRedis;
  let stack: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'clear-fault-redis-'));

  beforeAll(() => affiliate.start());
  afterAll(async () => {
    await affiliate.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  async function setUp(env: Record<string, string> = {}, worker = true): Promise<void> {
    redis = await startRedis({ port: await freePort(), dir, persistent: false });
    stack = await startStack(
      { REDIS_URL: redis.url, AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'fault-key', ...env },
      { worker },
    );
    await resetData(stack.db);
    affiliate.reset();
  }

  /**
   * Counted at the fake's door: every signup request, whatever it was answered. Each lead signed
   * up, nobody else, and nothing sent again once done; any retry carried the lead's one key.
   */
  const expectEachExactlyOnce = async (emails: string[]) => {
    await outboxDrained(stack.db);
    expect(exactlyOnceProblems(affiliate.signupsAtDoor(), emails)).toEqual([]);
    for (const attempt of affiliate.signupAttempts()) expect(attempt.idempotencyKey).toBe(`affiliate-signup:${attempt.params.uid}`);
  };

  it('accepts 50 leads while Redis is down and delivers each job exactly once after it returns', async () => {
    await setUp();
    const port = redis.port;
    await redis.stop();

    const emails = Array.from({ length: 50 }, (_, i) => `down-${i}@example.com`);
    const http = request(stack.url);
    const statuses = await Promise.all(
      emails.map((email) =>
        http
          .post('/api/leads')
          .send({ email, referral: 'partner7' })
          .then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(emails.map(() => 201));
    const [pending] = await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`);
    expect(pending.n).toBe(50);

    redis = await startRedis({ port, dir, persistent: false });
    await waitFor(() => affiliate.signups().length >= 50, '50 affiliate calls', 60_000);
    await expectEachExactlyOnce(emails);
  });

  it('re-dispatches jobs Redis lost after accepting them, still exactly once', async () => {
    await setUp({ OUTBOX_REDISPATCH_AFTER_MS: '1500' }, false);
    const emails = Array.from({ length: 10 }, (_, i) => `lost-${i}@example.com`);
    const http = request(stack.url);
    for (const email of emails) await http.post('/api/leads').send({ email, referral: 'partner7' }).expect(201);
    // The rows were handed to Redis, which then lost them (a crash before its fsync).
    await stack.db.query(`UPDATE outbox SET dispatched_at = now(), dispatch_count = 1`);
    const client = new Redis(redis.url);
    expect((await client.keys('bull:*')).filter((key) => !key.endsWith(':meta'))).toEqual([]);
    await client.quit();

    await stack.startWorker();
    await waitFor(() => affiliate.signups().length >= 10, '10 affiliate calls after re-dispatch', 30_000);
    await expectEachExactlyOnce(emails);
    const rows = await stack.db.query(`SELECT dispatch_count, completed_at FROM outbox`);
    expect(rows.every((r: { completed_at: Date | null }) => r.completed_at !== null)).toBe(true);
    expect(rows.every((r: { dispatch_count: number }) => r.dispatch_count === 2)).toBe(true);
  });

  it("every BullMQ queue the worker registers listens for 'error', so a closing connection never throws", async () => {
    await setUp();
    for (const name of Object.values(QUEUES)) {
      const queue = stack.worker!.get<Queue>(getQueueToken(name), { strict: false });
      expect({ name, listens: queue.listenerCount('error') > 0 }).toEqual({ name, listens: true });
    }
  });

  it('lets the worker die mid-load and finishes every job once when it comes back', async () => {
    await setUp();
    const emails = Array.from({ length: 40 }, (_, i) => `crash-${i}@example.com`);
    const http = request(stack.url);
    const posting = Promise.all(emails.map((email) => http.post('/api/leads').send({ email, referral: 'partner7' }).expect(201)));
    await waitFor(() => affiliate.signups().length >= 5, 'some progress');
    await stack.stopWorker();
    await posting;
    await stack.startWorker();
    await waitFor(() => affiliate.signups().length >= 40, 'all 40 affiliate calls', 60_000);
    await expectEachExactlyOnce(emails);
  });
});
