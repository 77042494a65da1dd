import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadProcessConfig } from '@core/config/app-config';
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
  let url: string;
  try {
    loadEnvFile();
    // The deploy's whole configuration, checked before connecting: a release whose API and worker
    // would refuse to start stops here, before its migrations change the database.
    url = loadProcessConfig().DATABASE_URL;
  } catch (err) {
    console.error((err as Error).message);
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
