import { Test, TestingModule } from '@nestjs/testing';
import { Logger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@core/config/app-config';
import { dataSourceOptions } from '@core/database/data-source';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import type { DispatchableJob, JobProducer } from '@core/queue/job-producer';
import { OutboxRelay } from '@core/queue/outbox-relay.service';
import { owe } from '@core/queue/owe';
import { RELAYED_JOBS } from '@core/queue/relayed-jobs';
import { WorkerModule } from '../../worker/src/worker.module';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { resetData, sleep, Stack, startStack, waitFor } from './support/stack';

describe('outbox relay against the real Postgres', () => {
  let db: DataSource;
  const config = { OUTBOX_BATCH_SIZE: 40, OUTBOX_REDISPATCH_AFTER_MS: 5000, OUTBOX_POLL_MS: 50 } as AppConfig;

  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 4)).initialize();
  });
  afterAll(() => db?.destroy());
  beforeEach(() => resetData(db));

  /** A relay whose "Redis" records the jobIds it was given, slowly, so relays overlap. */
  function relay(sink: string[], opts: { delayMs?: number; fail?: boolean } = {}): OutboxRelay {
    const producer = {
      enqueue: async (items: DispatchableJob[]) => {
        await sleep(opts.delayMs ?? 0);
        if (opts.fail) throw new Error('Redis is away');
        sink.push(...items.map((item) => item.jobId));
      },
    } as unknown as JobProducer;
    return new OutboxRelay(new OutboxRepository(db), producer, config, ['affiliate-signup']);
  }

  const owed = (count: number) =>
    db.transaction((manager) =>
      owe(
        manager,
        Array.from({ length: count }, () => ({ name: 'affiliate-signup' as const, data: { leadId: randomUUID() } })),
      ),
    );

  it('two relays draining at once never hand the same row to Redis twice', async () => {
    const ids = await owed(300);
    const a: string[] = [];
    const b: string[] = [];
    await Promise.all([relay(a, { delayMs: 30 }).drain(), relay(b, { delayMs: 30 }).drain(), relay(b, { delayMs: 10 }).drain()]);

    const all = [...a, ...b];
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...ids].sort());
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    const rows = await db.query(`SELECT dispatch_count, lease_until, dispatched_at FROM outbox`);
    expect(rows.every((r: { dispatch_count: number }) => r.dispatch_count === 1)).toBe(true);
    expect(
      rows.every((r: { lease_until: Date | null; dispatched_at: Date | null }) => r.lease_until === null && r.dispatched_at !== null),
    ).toBe(true);
  });

  it("redispatches only rows dispatched long ago and not done, and respects another relay's lease", async () => {
    const [due, recent, leased, done, expiredLease] = await owed(5);
    await db.query(`UPDATE outbox SET dispatched_at = now() - interval '10 seconds', dispatch_count = 1 WHERE id = ANY($1::uuid[])`, [
      [due, done],
    ]);
    await db.query(`UPDATE outbox SET completed_at = now() WHERE id = $1`, [done]);
    await db.query(`UPDATE outbox SET dispatched_at = now(), dispatch_count = 1 WHERE id = $1`, [recent]);
    await db.query(`UPDATE outbox SET lease_until = now() + interval '30 seconds' WHERE id = $1`, [leased]);
    await db.query(`UPDATE outbox SET lease_until = now() - interval '1 second' WHERE id = $1`, [expiredLease]);

    const sent: string[] = [];
    await relay(sent).drain();
    expect(sent.sort()).toEqual([due, expiredLease].sort());
    const [row] = await db.query(`SELECT dispatch_count FROM outbox WHERE id = $1`, [due]);
    expect(row.dispatch_count).toBe(2);
  });

  it('gives the rows back at once when Redis refuses them, so the next pass sends them', async () => {
    const ids = await owed(3);
    await expect(relay([], { fail: true }).drain()).rejects.toThrow('Redis is away');
    const rows = await db.query(`SELECT lease_until, dispatched_at, dispatch_count FROM outbox`);
    expect(rows).toEqual(ids.map(() => ({ lease_until: null, dispatched_at: null, dispatch_count: 0 })));
    const sent: string[] = [];
    await relay(sent).drain();
    expect(sent.sort()).toEqual([...ids].sort());
  });
});

describe('a job this worker does not know (an API released before its worker)', () => {
  const affiliate = new FakeAffiliateServer();
  let stack: Stack;
  let oldWorker: TestingModule | null = null;

  beforeAll(async () => {
    await affiliate.start();
    stack = await startStack({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'deploy-key' }, { worker: false });
    await resetData(stack.db);
  });
  afterAll(async () => {
    await oldWorker?.close();
    await stack?.stop();
    await affiliate.stop();
  });

  /** A worker built from a contract without the job: its relay does not know the job name. */
  async function startWorkerWithout(job: string): Promise<TestingModule> {
    const names = ['affiliate-signup'].filter((name) => name !== job);
    const worker = await Test.createTestingModule({ imports: [WorkerModule] })
      .overrideProvider(RELAYED_JOBS)
      .useValue(names)
      .compile();
    worker.useLogger(worker.get(Logger));
    await worker.init();
    return worker;
  }

  it('stays undispatched (not failed), shows in health, and is delivered once a worker that knows it starts', async () => {
    await request(stack.url).post('/api/leads').send({ email: 'deploy@example.com', referral: 'partner7' }).expect(201);
    oldWorker = await startWorkerWithout('affiliate-signup');

    const health = await waitFor(async () => {
      const res = await request(stack.url).get('/api/health').expect(200);
      return res.body.outboxUnhandled === 1 ? res.body : null;
    }, 'health to report the unhandled row');
    expect(health).toMatchObject({ status: 'ok', outboxPending: 1, outboxUnhandled: 1 });
    // One more relay pass, run and awaited here rather than slept for: it hands nothing to BullMQ.
    expect(await oldWorker.get(OutboxRelay).drain()).toBe(0);
    const [waiting] = await stack.db.query(`SELECT dispatched_at, failed_at, completed_at, last_error, unhandled_at FROM outbox`);
    expect(waiting).toMatchObject({ dispatched_at: null, failed_at: null, completed_at: null, last_error: null });
    expect(waiting.unhandled_at).not.toBeNull();
    expect(affiliate.signupAttempts()).toHaveLength(0);

    // The new worker starts next to the old one, as in a rolling deploy.
    await stack.startWorker();
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call');
    await waitFor(async () => (await stack.db.query(`SELECT completed_at FROM outbox`))[0].completed_at, 'outbox row done');
    const after = await request(stack.url).get('/api/health').expect(200);
    expect(after.body).toMatchObject({ outboxPending: 0, outboxUnhandled: 0 });
    expect(affiliate.signups()[0].params.email).toBe('deploy@example.com');
  });
});
