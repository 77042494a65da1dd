import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseConfig } from '../config/config-sections';
import { dataSourceOptions } from './data-source';
import { RepositoriesModule } from './repositories/repositories.module';

/**
 * A worker's jobs may wait this long for one of its own connections: they wait on nobody's buyer,
 * and a backlog larger than WORKER_DATABASE_POOL_SIZE is meant to queue here (a job that still
 * gets none fails and is retried; a Postgres that is down refuses at once, not after this).
 */
const WORKER_ACQUIRE_TIMEOUT_MS = 30_000;

type DatabaseRole = 'api' | 'worker';

/** Which process this is, for the pool's size (see DatabaseModule). */
const DATABASE_ROLE = Symbol('DATABASE_ROLE');

/**
 * Global because TypeORM's own module resolves the options factory's dependencies from its scope,
 * which sees global providers and not DatabaseModule's.
 */
@Global()
@Module({})
class DatabaseRoleModule {
  static of(role: DatabaseRole): DynamicModule {
    return { module: DatabaseRoleModule, providers: [{ provide: DATABASE_ROLE, useValue: role }], exports: [DATABASE_ROLE] };
  }
}

/**
 * The one TypeORM registration, for either role. @nestjs/typeorm records a data source's name when
 * forRootAsync is called (here, when this file loads) and warns of a second "default": a
 * registration per role would warn in any process that loads both the API's and the worker's
 * modules (the integration and model tests).
 */
const TYPEORM = TypeOrmModule.forRootAsync({
  inject: [DatabaseConfig, DATABASE_ROLE],
  useFactory: (config: DatabaseConfig, role: DatabaseRole) => ({
    ...(role === 'api'
      ? dataSourceOptions(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_ACQUIRE_TIMEOUT_MS)
      : dataSourceOptions(config.DATABASE_URL, config.WORKER_DATABASE_POOL_SIZE, WORKER_ACQUIRE_TIMEOUT_MS)),
    // Postgres may come up after us (compose, CI); keep trying instead of dying at boot.
    retryAttempts: 30,
    retryDelay: 1000,
  }),
});

/**
 * Each process's own Postgres pool, sized by its role: the API's (DATABASE_POOL_SIZE, waits of at
 * most DATABASE_ACQUIRE_TIMEOUT_MS) and the worker's (WORKER_DATABASE_POOL_SIZE), so a worker's
 * backlog queues on its own connections and never on the API's.
 */
@Module({})
export class DatabaseModule {
  static forRole(role: DatabaseRole): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [DatabaseRoleModule.of(role), TYPEORM, RepositoriesModule],
    };
  }
}
