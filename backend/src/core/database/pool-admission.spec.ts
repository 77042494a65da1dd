import type { DataSource } from 'typeorm';
import { AdmissionContext, isPoolBusy, PoolAdmission, PoolBusyError, runWithAdmission } from './pool-admission';

type Release = (err?: Error | boolean) => void;
type Callback = (err: Error | undefined, client?: FakeClient, release?: Release) => void;

interface FakeClient {
  id: number;
  release: Release;
}

/** node-pg's Pool as far as lending goes: `max` clients, callers queue for a released one (no timeout). */
class FakePool {
  readonly options: { max: number };
  private free: number[];
  private readonly queue: Callback[] = [];
  get waitingCount(): number {
    return this.queue.length;
  }

  failWith: Error | undefined;

  constructor(max: number) {
    this.options = { max };
    this.free = Array.from({ length: max }, (_, i) => i + 1);
  }

  connect(cb: Callback): void {
    if (this.failWith) return cb(this.failWith, undefined, () => undefined);
    const id = this.free.shift();
    if (id === undefined) this.queue.push(cb);
    else this.lend(id, cb);
  }

  get inUse(): number {
    return this.options.max - this.free.length;
  }

  private lend(id: number, cb: Callback): void {
    const client: FakeClient = { id, release: () => undefined };
    client.release = () => {
      const next = this.queue.shift();
      if (next) this.lend(id, next);
      else this.free.push(id);
    };
    cb(undefined, client, client.release);
  }
}

function install(max: number, reserved: number, sharedWaitMs: number, maxWaiting = 100): FakePool {
  const pool = new FakePool(max);
  PoolAdmission.install({ driver: { master: pool } } as unknown as DataSource, { reserved, sharedWaitMs, maxWaiting });
  return pool;
}

/** A connection as TypeORM takes one: through the callback, keeping the release it is handed. */
function take(pool: FakePool): Promise<{ client: FakeClient; release: Release }> {
  return new Promise((resolve, reject) =>
    pool.connect((err, client, release) => (err ? reject(err) : resolve({ client: client!, release: release! }))),
  );
}

const takeShared = (pool: FakePool) => runWithAdmission({ shared: true }, () => take(pool));

describe('PoolAdmission', () => {
  it('lets shared work hold all but the reserved connections, and refuses the next one after the wait', async () => {
    const pool = install(4, 2, 50);
    await takeShared(pool);
    await takeShared(pool);
    const started = Date.now();
    const refused = await takeShared(pool).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PoolBusyError);
    expect((refused as PoolBusyError).reason).toBe('shared_connections');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(pool.inUse).toBe(2);
  });

  it('keeps the reserved connections for work outside the shared lane', async () => {
    const pool = install(4, 2, 50);
    await Promise.all([takeShared(pool), takeShared(pool)]);
    const priority = await Promise.all([take(pool), take(pool)]);
    expect(priority.map((p) => p.client.id).sort()).toEqual([3, 4]);
  });

  it('hands a released shared connection to the next shared caller in line, never more than the share at once', async () => {
    const pool = install(3, 1, 1000);
    const first = await takeShared(pool);
    await takeShared(pool);
    const waiting = takeShared(pool);
    first.release();
    await waiting;
    expect(pool.inUse).toBe(2);
    // A priority caller still finds the reserved connection free.
    await take(pool);
    expect(pool.inUse).toBe(3);
  });

  it('counts a release through client.release (promise callers) once, however often it is called', async () => {
    const pool = install(2, 1, 0);
    const client = await runWithAdmission({ shared: true }, () => (pool as unknown as { connect(): Promise<FakeClient> }).connect());
    client.release();
    client.release();
    await takeShared(pool);
    await expect(takeShared(pool)).rejects.toBeInstanceOf(PoolBusyError);
  });

  it("turns the pool's own queue timeout into PoolBusyError and returns the shared slot", async () => {
    const pool = install(2, 1, 0);
    pool.failWith = new Error('timeout exceeded when trying to connect');
    const refused = await takeShared(pool).catch((err: unknown) => err);
    expect(isPoolBusy(refused) && refused.reason).toBe('pool_timeout');
    expect(isPoolBusy(await take(pool).catch((err: unknown) => err))).toBe(true);
    pool.failWith = undefined;
    await takeShared(pool);
  });

  it("refuses at once when the pool's own line is already as long as allowed", async () => {
    const pool = install(2, 1, 0, 1);
    await Promise.all([take(pool), take(pool)]);
    void take(pool);
    expect(pool.waitingCount).toBe(1);
    const refused = await take(pool).catch((err: unknown) => err);
    expect(isPoolBusy(refused) && refused.reason).toBe('pool_queue');
    expect(pool.waitingCount).toBe(1);
  });

  it("refuses work with its own shorter line at once when the pool's line is that long, and still queues the rest", async () => {
    const pool = install(2, 0, 0, 10);
    await Promise.all([take(pool), take(pool)]);
    void take(pool);
    void take(pool);
    expect(pool.waitingCount).toBe(2);
    const started = runWithAdmission({ shared: false, maxWaiting: 2 }, () => take(pool).catch((err: unknown) => err));
    const refused = await started;
    expect(isPoolBusy(refused) && refused.reason).toBe('pool_queue');
    // A caller without its own limit (a purchase under way) still joins the line.
    void take(pool);
    expect(pool.waitingCount).toBe(3);
    // Its own limit never lengthens the pool's.
    const capped = install(1, 0, 0, 1);
    await take(capped);
    void take(capped);
    const stillRefused = await runWithAdmission({ shared: false, maxWaiting: 50 }, () => take(capped).catch((err: unknown) => err));
    expect(isPoolBusy(stillRefused) && stillRefused.reason).toBe('pool_queue');
  });

  it('notes a refusal in the context it happened in, for an answer even when the caller rewrapped the error', async () => {
    const pool = install(2, 1, 0);
    const priority: AdmissionContext = { shared: false };
    await runWithAdmission({ shared: true }, () => take(pool));
    pool.failWith = new Error('timeout exceeded when trying to connect');
    await runWithAdmission(priority, () => take(pool).catch(() => new Error('The payment service is not answering')));
    expect(priority.refused).toBe('pool_timeout');
    const shared: AdmissionContext = { shared: true };
    await runWithAdmission(shared, () => take(pool).catch(() => undefined));
    expect(shared.refused).toBe('shared_connections');
  });

  it('passes any other error through as it is (an outage is not "busy")', async () => {
    const pool = install(2, 1, 0);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    pool.failWith = refused;
    await expect(takeShared(pool)).rejects.toBe(refused);
    await expect(take(pool)).rejects.toBe(refused);
  });
});
