import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { QueryLogger } from './query-logger';

export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new QueryLogger(),
    extra: { max: poolSize, connectionTimeoutMillis: 5000 },
  };
}
