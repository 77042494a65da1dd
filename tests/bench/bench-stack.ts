import { Client } from 'pg';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { freePort } from '../../scripts/lib/ports';
import { appEnv, startThrowawayData, ThrowawayData } from '../../scripts/lib/stack';
import { FakeAffiliateServer } from '../fakes/affiliate-server';

/** The per-client limits lifted: one load generator is every client, and would turn a run into a 429 benchmark. */
export const ONE_CLIENT_LIMITS = { RATE_LIMIT_WRITES: '100000000', RATE_LIMIT_INTENTS_PER_CLIENT: '100000000' } as const;

/** The role of the bench's counting client when statements are counted (the app's role is `postgres`). */
export const BENCH_ROLE = 'bench_counter';

export interface BenchStack {
  data: ThrowawayData;
  affiliate: FakeAffiliateServer;
  /** The API's and worker's environment: one client's limits lifted, affiliate calls to the fake. */
  env: NodeJS.ProcessEnv;
  /** A plain node-pg client for counting what was stored and delivered. */
  db: Client;
  /** Undoes all of the above, last first. */
  stop(): Promise<void>;
}

/**
 * What the API and queue benches run on: a throwaway Postgres and Redis (Redis persistent, as in
 * production), the loopback affiliate fake, the processes' environment and a counting client.
 * Each piece is owned by `life` as soon as it exists.
 */
export async function startBenchStack(life: Lifecycle, name: string, opts: { countStatements?: boolean } = {}): Promise<BenchStack> {
  const data = await startThrowawayData(life, {
    name,
    pgPort: await freePort(),
    redisPort: await freePort(),
    redisPersistent: true,
    // Counting statements (pg_stat_statements) costs Postgres a little CPU per statement.
    pgSettings: opts.countStatements ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'] : undefined,
  });
  const affiliate = new FakeAffiliateServer();
  await affiliate.start();
  const stopAffiliate = life.own('Fake affiliate service', () => affiliate.stop());
  const env = appEnv(data, await freePort(), {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...ONE_CLIENT_LIMITS,
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'bench-key',
  });
  let db = new Client({ connectionString: data.databaseUrl });
  await db.connect();
  if (opts.countStatements) {
    // The counting client is its own role, so that its statements are told from the app's.
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query(`CREATE ROLE ${BENCH_ROLE} LOGIN SUPERUSER PASSWORD '${BENCH_ROLE}'`);
    await db.end();
    const url = new URL(data.databaseUrl);
    url.username = BENCH_ROLE;
    url.password = BENCH_ROLE;
    db = new Client({ connectionString: url.toString() });
    await db.connect();
  }
  const closeDb = life.own('Bench database client', () => db.end());
  return {
    data,
    affiliate,
    env,
    db,
    async stop() {
      await closeDb();
      await stopAffiliate();
      await data.stop();
    },
  };
}
