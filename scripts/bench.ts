import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { FakeAffiliateServer } from '../tests/fakes/affiliate-server';
import { fail, step } from './lib/log';
import { startEmbeddedPostgres } from './lib/postgres';
import { startProcess, waitForHttp } from './lib/processes';
import { startRedis } from './lib/redis';
import { migrate } from './migrate';

const root = resolve(__dirname, '..', '..');

/**
 * `npm run bench`: POST /api/leads under load against the real API, worker, Postgres and Redis
 * on this machine. Prints throughput, latency percentiles and errors, then checks that every
 * accepted lead was stored and its affiliate job delivered exactly once.
 */
async function main(): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 20);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const scratch = mkdtempSync(join(tmpdir(), 'clear-bench-'));
  const pg = await startEmbeddedPostgres({ dir: join(scratch, 'pg'), port: 54340, database: 'clear_bench', persistent: false, fresh: true });
  const redis = await startRedis({ port: 6392, dir: join(scratch, 'redis'), persistent: true });
  const affiliate = new FakeAffiliateServer();
  await affiliate.start();
  await migrate(pg.url);
  const port = 3200;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_WRITES: '100000000',
    STATIC_DIR: join(root, 'frontend', 'dist'),
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'bench-key',
  };
  const api = startProcess('API', process.execPath, [join(root, 'dist', 'backend', 'src', 'main.js')], env);
  const worker = startProcess('Worker', process.execPath, [join(root, 'dist', 'worker', 'src', 'main.js')], env);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, api.child);
    step(`Warming up, then ${duration} s of POST /api/leads with ${connections} connections (log level ${env.LOG_LEVEL})`);
    await fire(port, 3, connections, 'warmup');
    const result = await fire(port, duration, connections, 'run');
    const ok = result['2xx'];
    process.stdout.write(
      [
        '',
        'POST /api/leads',
        `  requests/s   mean ${result.requests.mean.toFixed(0)}   min ${result.requests.min}   max ${result.requests.max}`,
        `  latency ms   p50 ${result.latency.p50}   p90 ${result.latency.p90}   p99 ${result.latency.p99}   max ${result.latency.max}`,
        `  responses    2xx ${ok}   non-2xx ${result.non2xx}   errors ${result.errors}   timeouts ${result.timeouts}`,
        '',
      ].join('\n'),
    );
    step('Waiting for the worker to deliver every affiliate job');
    const db = new Client({ connectionString: pg.url });
    await db.connect();
    const started = Date.now();
    let pending = Infinity;
    while (pending > 0 && Date.now() - started < 180_000) {
      pending = Number((await db.query(`SELECT count(*) FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL`)).rows[0].count);
      await new Promise((r) => setTimeout(r, 500));
    }
    const leads = Number((await db.query(`SELECT count(*) FROM leads WHERE email LIKE 'bench-run-%'`)).rows[0].count);
    await db.end();
    const calls = affiliate.signups().filter((c) => c.params.email.startsWith('bench-run-'));
    const distinct = new Set(calls.map((c) => c.params.email)).size;
    process.stdout.write(
      [
        `  leads stored ${leads} (2xx answered ${ok})`,
        `  affiliate    ${calls.length} calls for ${distinct} distinct leads; drained in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        // Requests still in flight when the clock stops are stored but not counted by autocannon.
        `  verdict      ${leads >= ok && leads - ok <= connections && calls.length === distinct && distinct === leads && result.errors === 0 && result.non2xx === 0 ? 'no lost leads, no duplicates, no errors' : 'MISMATCH: see figures above'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await worker.stop();
    await api.stop();
    await affiliate.stop();
    await redis.stop();
    await pg.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function fire(port: number, duration: number, connections: number, tag: string): Promise<autocannon.Result> {
  let n = 0;
  return new Promise((resolvePromise, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/api/leads`,
        method: 'POST',
        duration,
        connections,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ email: `bench-${tag}-${process.pid}-${n++}@example.com`, name: 'Bench', referral: 'partner7' }),
            }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolvePromise(result)),
    );
  });
}

main().catch((err: Error) => fail(err.stack ?? err.message));
