import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadEnvFile } from '@core/config/env-file';
import { dataSourceOptions } from '@core/database/data-source';
import { runMigrationsLocked } from '@core/database/repositories/migration-lock';

/**
 * Applies pending migrations to DATABASE_URL, one run at a time (a Postgres advisory lock); used by
 * `npm start`, tests and deployments.
 */
export async function migrate(url: string): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, 2), logging: ['error'] });
  await dataSource.initialize();
  try {
    const applied = await runMigrationsLocked(dataSource);
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  try {
    loadEnvFile();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set: it names the Postgres database to migrate');
    process.exit(1);
  }
  migrate(url).then(
    (names) => console.log(names.length ? `Applied migrations: ${names.join(', ')}` : 'Database schema is up to date'),
    (err: Error) => {
      console.error(`Migration failed: ${err.message}`);
      process.exit(1);
    },
  );
}
