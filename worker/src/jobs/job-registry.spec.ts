import { BullRegistrar, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JOBS, LeadAttributionPayload, QUEUES } from '@contracts/jobs';
import { assertEveryJobHandled, JobRegistry } from './job-registry';
import { OnJob } from './on-job.decorator';

@Injectable()
class AttributionHandler {
  seen: LeadAttributionPayload[] = [];

  @OnJob(JOBS.leadAttribution)
  async attribute(data: LeadAttributionPayload): Promise<string> {
    this.seen.push(data);
    return 'handled';
  }
}

@Injectable()
class SecondAttributionHandler {
  @OnJob(JOBS.leadAttribution)
  async attribute(): Promise<string> {
    return 'again';
  }
}

@Processor(QUEUES.tracking)
class TrackingConsumer extends WorkerHost {
  async process(): Promise<void> {}
}

async function registryWith(providers: Array<new (...args: never[]) => unknown>) {
  const register = jest.fn();
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [JobRegistry, { provide: BullRegistrar, useValue: { register } }, ...providers],
  }).compile();
  return { app: moduleRef, register };
}

describe('JobRegistry', () => {
  it('finds the @OnJob handler, runs it with the payload, then starts the consumers', async () => {
    const { app, register } = await registryWith([AttributionHandler, TrackingConsumer]);
    await app.init();
    const handler = app.get(JobRegistry).handlerFor(JOBS.leadAttribution);
    expect(handler).toMatchObject({ job: 'lead-attribution', queue: 'tracking', owner: 'AttributionHandler.attribute' });
    await expect(handler!.run({ leadId: 'l-1' })).resolves.toBe('handled');
    expect(app.get(AttributionHandler).seen).toEqual([{ leadId: 'l-1' }]);
    expect(register).toHaveBeenCalledTimes(1);
    expect(app.get(JobRegistry).handlerFor('no-such-job')).toBeUndefined();
  });

  it('refuses to start, before any consumer, when a contract job has no handler', async () => {
    const { app, register } = await registryWith([TrackingConsumer]);
    await expect(app.init()).rejects.toThrow(/"lead-attribution" on queue "tracking" has 0 handlers/);
    expect(register).not.toHaveBeenCalled();
  });

  it('refuses to start when a job has two handlers, naming both', async () => {
    const { app, register } = await registryWith([AttributionHandler, SecondAttributionHandler, TrackingConsumer]);
    await expect(app.init()).rejects.toThrow(/has 2 handlers \(AttributionHandler.attribute, SecondAttributionHandler.attribute\)/);
    expect(register).not.toHaveBeenCalled();
  });

  it('refuses to start when the job\'s queue has no processor', async () => {
    const { app } = await registryWith([AttributionHandler]);
    await expect(app.init()).rejects.toThrow(/queue "tracking" has 0 processors/);
  });
});

describe('assertEveryJobHandled', () => {
  const handler = { job: JOBS.leadAttribution, queue: QUEUES.tracking, owner: 'A.b' };

  it('accepts one handler per job with one processor per queue', () => {
    expect(() => assertEveryJobHandled([handler], [QUEUES.tracking])).not.toThrow();
  });

  it('rejects a queue with two processors', () => {
    expect(() => assertEveryJobHandled([handler], [QUEUES.tracking, QUEUES.tracking])).toThrow(/queue "tracking" has 2 processors/);
  });
});
