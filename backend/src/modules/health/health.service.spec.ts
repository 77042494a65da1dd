import type { DataSource } from 'typeorm';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import type { JobProducer } from '@core/queue/job-producer';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

const counts = { waiting: 0, active: 0, delayed: 0, failed: 0 };

function healthWith(postgres: 'up' | 'down', redis: 'up' | 'down') {
  const dataSource = {
    query: jest.fn(() =>
      postgres === 'down'
        ? Promise.reject(new Error('connect ECONNREFUSED'))
        : Promise.resolve([{ undispatched: 2, in_flight: 3, unhandled: 1 }]),
    ),
  } as unknown as DataSource;
  const queue = {
    name: 'tracking',
    getJobCounts: jest.fn(() => (redis === 'down' ? Promise.reject(new Error('Connection is closed')) : Promise.resolve(counts))),
  };
  const producer = { allQueues: () => [queue] } as unknown as JobProducer;
  const service = new HealthService(new OutboxRepository(dataSource), producer);
  return { service, controller: new HealthController(service) };
}

interface FakeReply {
  statusCode: number;
  status: jest.Mock;
  header: jest.Mock;
}

function reply(): FakeReply {
  const r: FakeReply = { statusCode: 0, status: jest.fn((code: number) => ((r.statusCode = code), r)), header: jest.fn(() => r) };
  return r;
}

describe('readiness', () => {
  it('is 200 ok with both up, counting pending and unhandled outbox rows', async () => {
    const { controller } = healthWith('up', 'up');
    const r = reply();
    await expect(controller.readiness(r as never)).resolves.toEqual({
      status: 'ok',
      postgres: 'up',
      redis: 'up',
      queues: { tracking: counts },
      outboxPending: 5,
      outboxUnhandled: 1,
    });
    expect(r.statusCode).toBe(200);
  });

  it('stays 200 (degraded) while only Redis is down: the API still accepts work', async () => {
    const { controller } = healthWith('up', 'down');
    const r = reply();
    await expect(controller.readiness(r as never)).resolves.toMatchObject({
      status: 'degraded',
      postgres: 'up',
      redis: 'down',
      queues: {},
    });
    expect(r.statusCode).toBe(200);
  });

  it('is 503 (unavailable) when Postgres is down', async () => {
    const { controller } = healthWith('down', 'up');
    const r = reply();
    await expect(controller.readiness(r as never)).resolves.toMatchObject({
      status: 'unavailable',
      postgres: 'down',
      outboxPending: -1,
      outboxUnhandled: -1,
    });
    expect(r.statusCode).toBe(503);
  });
});
