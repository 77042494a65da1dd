import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MIGRATIONS } from '@core/database/migrations';
import { migrate } from '../../scripts/migrate';

/**
 * Two migration runs started at once against one empty database, as a Compose `up` on two hosts or
 * a rolling deploy starts them: they take turns under the advisory lock, so every migration is
 * applied exactly once and neither run fails.
 */
describe('concurrent migration runs', () => {
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  const name = `clear_migrate_race_${randomBytes(4).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${name}`;
    url = u.toString();
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('apply every migration once between them, and both succeed', async () => {
    const runs = await Promise.allSettled([migrate(url), migrate(url), migrate(url)]);
    expect(runs.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    const applied = runs.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    expect(applied.sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());

    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT name, count(*)::int AS n FROM typeorm_migrations GROUP BY name HAVING count(*) > 1');
      expect(rows).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
