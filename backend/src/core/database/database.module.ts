import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';
import { OrdersModule } from '../orders/orders.module';
import { RepositoriesModule } from './repositories/repositories.module';

/**
 * A worker's jobs may wait this long for one of its own connections: they wait on nobody's buyer,
 * and a backlog larger than WORKER_DATABASE_POOL_SIZE is meant to queue here (a job that still
 * gets none fails and is retried; a Postgres that is down refuses at once, not after this).
 */
const WORKER_ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * Each process's own Postgres pool, sized by its role: the API's (DATABASE_POOL_SIZE, waits of at
 * most DATABASE_ACQUIRE_TIMEOUT_MS) and the worker's (WORKER_DATABASE_POOL_SIZE), so a worker's
 * backlog queues on its own connections and never on the API's.
 */
@Module({})
export class DatabaseModule {
  static forRole(role: 'api' | 'worker'): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...(role === 'api'
              ? dataSourceOptions(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_ACQUIRE_TIMEOUT_MS)
              : dataSourceOptions(config.DATABASE_URL, config.WORKER_DATABASE_POOL_SIZE, WORKER_ACQUIRE_TIMEOUT_MS)),
            // Postgres may come up after us (compose, CI); keep trying instead of dying at boot.
            retryAttempts: 30,
            retryDelay: 1000,
          }),
        }),
        RepositoriesModule,
        OrdersModule,
      ],
    };
  }
}
