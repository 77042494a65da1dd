import autocannon from 'autocannon';
import { Client } from 'pg';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { startApp, startThrowawayData } from '../../scripts/lib/stack';
import { FakeAffiliateServer } from '../fakes/affiliate-server';

/**
 * POST /api/leads under load against the real API, worker, Postgres and Redis on this machine.
 * Prints throughput, latency percentiles and errors, then checks that every accepted lead was
 * stored and its affiliate job delivered exactly once.
 */
export async function benchLeads(life: Lifecycle): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 20);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const data = await startThrowawayData(life, { name: 'bench', pgPort: 54340, redisPort: 6392, redisPersistent: true });
  const affiliate = new FakeAffiliateServer();
  await affiliate.start();
  const stopAffiliate = life.own('Fake affiliate service', () => affiliate.stop());
  const app = await startApp(life, data, 3200, {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_WRITES: '100000000',
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'bench-key',
  });
  try {
    step(`Warming up, then ${duration} s of POST /api/leads with ${connections} connections (log level ${app.env.LOG_LEVEL})`);
    await fire(app.url, 3, connections, 'warmup');
    const result = await fire(app.url, duration, connections, 'run');
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
    const db = new Client({ connectionString: data.databaseUrl });
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
    // Requests still in flight when the clock stops are stored but not counted by autocannon.
    const consistent = leads >= ok && leads - ok <= connections && calls.length === distinct && distinct === leads;
    process.stdout.write(
      [
        `  leads stored ${leads} (2xx answered ${ok})`,
        `  affiliate    ${calls.length} calls for ${distinct} distinct leads; drained in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `  worker       ${jobsPerSecond(calls.map((c) => c.at)).toFixed(0)} jobs/s (lead accepted → affiliate call, first to last call)`,
        `  verdict      ${consistent && result.errors === 0 && result.non2xx === 0 ? 'no lost leads, no duplicates, no errors' : 'MISMATCH: see figures above'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await app.stop();
    await stopAffiliate();
    await data.stop();
  }
}

function jobsPerSecond(times: number[]): number {
  if (times.length < 2) return 0;
  const first = times.reduce((a, b) => Math.min(a, b));
  const last = times.reduce((a, b) => Math.max(a, b));
  return last > first ? (times.length - 1) / ((last - first) / 1000) : 0;
}

function fire(baseUrl: string, duration: number, connections: number, tag: string): Promise<autocannon.Result> {
  let n = 0;
  return new Promise((resolvePromise, reject) => {
    autocannon(
      {
        url: `${baseUrl}/api/leads`,
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

