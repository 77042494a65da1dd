import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from './database.module';

/** @nestjs/typeorm's token for the options its factory resolved (typeorm.constants, not exported). */
const TYPEORM_MODULE_OPTIONS = 'TypeOrmModuleOptions';

describe('DatabaseModule', () => {
  afterEach(() => jest.restoreAllMocks());

  it('registers one data source for both roles, so a process loading the API and the worker hears no duplicate', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    DatabaseModule.forRole('api');
    DatabaseModule.forRole('worker');
    expect(warn.mock.calls.filter(([message]) => /already registered/.test(String(message)))).toEqual([]);
  });

  it.each([
    ['api', { DATABASE_POOL_SIZE: '7' }, 7],
    ['worker', { WORKER_DATABASE_POOL_SIZE: '40' }, 40],
  ] as const)('gives the %s its own pool size', async (role, env, max) => {
    const saved = { ...process.env };
    Object.assign(process.env, { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' }, env);
    try {
      // A stand-in data source: the options are resolved, no connection is opened.
      const moduleRef = await Test.createTestingModule({ imports: [ConfigModule, DatabaseModule.forRole(role)] })
        .overrideProvider(getDataSourceToken())
        .useValue({ manager: {} })
        .compile();
      expect(moduleRef.get<{ extra: { max: number } }>(TYPEORM_MODULE_OPTIONS, { strict: false }).extra.max).toBe(max);
      await moduleRef.close();
    } finally {
      process.env = saved;
    }
  });
});
