import type { DataSource, Migration, QueryRunner } from 'typeorm';

/**
 * Key of the Postgres advisory lock a migration run holds (any 64-bit number that nothing else
 * uses; this one spells "clearmig" in ASCII).
 */
const MIGRATION_LOCK_KEY = '7164212576445622631';

const LOCK_POLL_MS = 250;

async function tryLock(runner: QueryRunner): Promise<boolean> {
  const rows = (await runner.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [MIGRATION_LOCK_KEY])) as Array<{
    locked: boolean;
  }>;
  return rows[0].locked;
}

/**
 * Applies the pending migrations while holding a session-level advisory lock, so migration runs
 * started at once (a Compose `up` on two hosts, a rolling deploy, `npm start` beside a test) take
 * turns: the second finds the schema up to date instead of racing to create the same tables.
 * Needs a pool of two connections: one holds the lock, the other runs the migrations.
 *
 * The lock is polled (pg_try_advisory_lock) rather than waited for: a statement blocked in
 * pg_advisory_lock holds a snapshot, and CREATE INDEX CONCURRENTLY in the running migration waits
 * for every older snapshot in the database, so the two runs would wait on each other for ever.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    while (!(await tryLock(lock))) await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lock.release();
  }
}
