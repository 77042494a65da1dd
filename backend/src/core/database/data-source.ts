import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { QueryLogger } from './query-logger';
import { PreparingClient } from './preparing-client';

/**
 * `acquireTimeoutMs` bounds both waiting for a free connection of the pool and opening a new one
 * (node-pg's connectionTimeoutMillis covers both).
 */
export function dataSourceOptions(url: string, poolSize = 10, acquireTimeoutMs = 5000): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new QueryLogger(),
    extra: { max: poolSize, connectionTimeoutMillis: acquireTimeoutMs, Client: PreparingClient },
  };
}
