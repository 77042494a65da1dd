import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { DispatchableJob, JobProducer } from './job-producer';
import { OutboxRepository } from '../database/repositories/outbox.repository';
import { OutboxRelay } from './outbox-relay.service';

interface Row {
  id: string;
  job_name: string;
  payload: object;
  created_at: Date;
}

/** A DataSource stand-in that answers the relay's statements by their shape (as TypeORM does) and records them. */
function fakeDb(claims: Row[][], unhandled: Array<{ job_name: string; n: number }> = []) {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const answer = (sql: string): unknown => {
    if (sql.includes('lease_until = now() +')) {
      const rows = claims.shift() ?? [];
      return [rows, rows.length];
    }
    if (sql.includes('SET unhandled_at = now()')) return unhandled;
    return [];
  };
  const db = {
    statements,
    transaction: jest.fn(),
    query: jest.fn((sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      return Promise.resolve(answer(sql));
    }),
  };
  return db;
}

const config = { OUTBOX_BATCH_SIZE: 10, OUTBOX_REDISPATCH_AFTER_MS: 120_000, OUTBOX_POLL_MS: 50 } as AppConfig;
const row = (id: string, job_name = 'affiliate-signup', at = 0): Row => ({
  id,
  job_name,
  payload: { leadId: `lead-${id}` },
  created_at: new Date(at),
});

function relayWith(
  db: ReturnType<typeof fakeDb>,
  enqueue: (items: DispatchableJob[]) => void | Promise<void>,
  known = ['affiliate-signup'],
) {
  const producer = {
    enqueue: jest.fn(async (items: DispatchableJob[]) => {
      await enqueue(items);
    }),
  };
  const outbox = new OutboxRepository(db as unknown as DataSource);
  return { relay: new OutboxRelay(outbox, producer as unknown as JobProducer, config, known), producer };
}

describe('OutboxRelay', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('claims with a lease, adds the jobs under jobId = row id, then marks exactly those rows dispatched', async () => {
    const db = fakeDb([[row('b', 'affiliate-signup', 2), row('a', 'affiliate-signup', 1)]]);
    const seen: DispatchableJob[][] = [];
    const { relay } = relayWith(db, (items) => {
      // The claim statement has finished (no transaction is open) before Redis is called.
      expect(db.statements.at(-1)!.sql).toContain('RETURNING o.id');
      seen.push(items);
    });
    await expect(relay.drain()).resolves.toBe(2);

    expect(seen).toEqual([
      [
        { jobId: 'a', job: { name: 'affiliate-signup', data: { leadId: 'lead-a' } } },
        { jobId: 'b', job: { name: 'affiliate-signup', data: { leadId: 'lead-b' } } },
      ],
    ]);
    const claim = db.statements.find((s) => s.sql.includes('lease_until = now() +'))!;
    expect(claim.sql).toMatch(/FOR UPDATE SKIP LOCKED/);
    expect(claim.params).toEqual([['affiliate-signup'], 10, 120_000, 30_000]);
    const mark = db.statements.find((s) => s.sql.includes('SET dispatched_at = now()'))!;
    expect(mark.sql).toContain('dispatch_count = dispatch_count + 1');
    expect(mark.sql).toContain('lease_until = NULL');
    expect(mark.params).toEqual([['a', 'b']]);
    expect(db.transaction).not.toHaveBeenCalled();
  });

  it('hands a row owed for later to BullMQ at once as a delayed job, for the time left', async () => {
    const later = { ...row('c', 'abandoned-checkout-email', 1), delay_ms: 3_599_000.4 };
    const db = fakeDb([[later, row('d', 'affiliate-signup', 2)]]);
    const seen: DispatchableJob[][] = [];
    const { relay } = relayWith(db, (items) => void seen.push(items), ['affiliate-signup', 'abandoned-checkout-email']);
    await expect(relay.drain()).resolves.toBe(2);
    expect(seen).toEqual([
      [
        { jobId: 'c', job: { name: 'abandoned-checkout-email', data: { leadId: 'lead-c' } }, delayMs: 3_599_001 },
        { jobId: 'd', job: { name: 'affiliate-signup', data: { leadId: 'lead-d' } } },
      ],
    ]);
    // A delayed row is offered again only once its job should have run and then some.
    const claim = db.statements.find((s) => s.sql.includes('lease_until = now() +'))!;
    expect(claim.sql).toMatch(/available_at IS NULL OR available_at < now\(\) - make_interval/);
  });

  it('offers due rows again (redispatch) only for rows whose dispatch is older than OUTBOX_REDISPATCH_AFTER_MS', async () => {
    const db = fakeDb([[row('stale')]]);
    const { relay, producer } = relayWith(db, () => undefined);
    await relay.drain();
    const claim = db.statements.find((s) => s.sql.includes('lease_until = now() +'))!;
    expect(claim.sql).toMatch(/dispatched_at < now\(\) - make_interval\(secs => \$3::double precision \/ 1000\)/);
    expect(claim.sql).toMatch(/dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL/);
    expect((producer.enqueue as jest.Mock).mock.calls[0][0][0].jobId).toBe('stale');
  });

  it('releases the lease and leaves the rows undispatched when Redis refuses', async () => {
    const db = fakeDb([[row('a')]]);
    const { relay } = relayWith(db, () => {
      throw new Error('Redis is away');
    });
    await expect(relay.drain()).rejects.toThrow('Redis is away');
    expect(db.statements.some((s) => s.sql.includes('SET dispatched_at = now()'))).toBe(false);
    const release = db.statements.find((s) => s.sql.includes('SET lease_until = NULL'))!;
    expect(release.params).toEqual([['a']]);
  });

  it('keeps draining while batches come back full', async () => {
    const full = Array.from({ length: 10 }, (_, i) => row(`r${i}`));
    const db = fakeDb([full, [row('last')]]);
    const { relay, producer } = relayWith(db, () => undefined);
    await expect(relay.drain()).resolves.toBe(11);
    expect(producer.enqueue).toHaveBeenCalledTimes(2);
  });

  it('leaves rows of unknown jobs alone and reports them by name and count, at most once a minute', async () => {
    const db = fakeDb([[], []], [{ job_name: 'future-job', n: 3 }]);
    const { relay, producer } = relayWith(db, () => undefined, ['affiliate-signup']);
    await relay.drain();

    const claim = db.statements.find((s) => s.sql.includes('lease_until = now() +'))!;
    expect(claim.sql).toContain('job_name = ANY($1::text[])');
    const mark = db.statements.find((s) => s.sql.includes('SET unhandled_at = now()'))!;
    expect(mark.sql).toContain('job_name <> ALL($1::text[])');
    expect(mark.params).toEqual([['affiliate-signup']]);
    expect(producer.enqueue).not.toHaveBeenCalled();
    expect(db.statements.some((s) => /failed_at = now\(\)/.test(s.sql))).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe('Outbox rows left for a worker that knows their job (this one does not): "future-job" (3)');

    // The check runs at most every 10 s; the same picture is not logged again within a minute.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 11_000);
    await relay.drain();
    clock.mockRestore();
    expect(db.statements.filter((s) => s.sql.includes('SET unhandled_at = now()'))).toHaveLength(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
