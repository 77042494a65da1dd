import { BullRegistrar, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JOB_QUEUE, JobName, JOBS, AffiliateSignupPayload, QUEUES, QueueName } from '@contracts/jobs';
import { assertEveryJobHandled, JobRegistry } from './job-registry';
import { OnJob } from './on-job.decorator';

@Injectable()
class AttributionHandler {
  seen: AffiliateSignupPayload[] = [];

  @OnJob(JOBS.affiliateSignup)
  async attribute(data: AffiliateSignupPayload): Promise<string> {
    this.seen.push(data);
    return 'handled';
  }
}

@Injectable()
class SecondAttributionHandler {
  @OnJob(JOBS.affiliateSignup)
  async attribute(): Promise<string> {
    return 'again';
  }
}

type Provider = new (...args: never[]) => unknown;

/**
 * A provider with one `@OnJob` stub for each job JOB_QUEUE puts on `queue`, but `except`: built from
 * the contract, so a new job needs no edit here.
 */
function stubHandlers(queue: QueueName, except: readonly JobName[] = []): Provider {
  class Stubs {}
  Object.defineProperty(Stubs, 'name', { value: `${queue}Handlers` });
  for (const [job, jobQueue] of Object.entries(JOB_QUEUE) as Array<[JobName, QueueName]>) {
    if (jobQueue !== queue || except.includes(job)) continue;
    const descriptor = { value: async (): Promise<string> => 'stubbed', writable: true, configurable: true };
    Object.defineProperty(Stubs.prototype, job, descriptor);
    OnJob(job)(Stubs.prototype, job, descriptor);
  }
  Injectable()(Stubs);
  return Stubs;
}

/** The BullMQ consumer of `queue`. */
function consumerOf(queue: QueueName): Provider {
  @Processor(queue)
  class Consumer extends WorkerHost {
    async process(): Promise<void> {}
  }
  Object.defineProperty(Consumer, 'name', { value: `${queue}Consumer` });
  return Consumer;
}

const TrackingConsumer = consumerOf(QUEUES.tracking);
const PaymentsConsumer = consumerOf(QUEUES.payments);
const PAYMENTS = [stubHandlers(QUEUES.payments), PaymentsConsumer];
const InvitationsConsumer = consumerOf(QUEUES.invitations);

/** Every other job (all but affiliate-signup and the payments queue's), always handled in the cases below. */
const OTHER_QUEUES = [
  stubHandlers(QUEUES.tracking, [JOBS.affiliateSignup]),
  ...Object.values(QUEUES)
    .filter((queue) => queue !== QUEUES.tracking && queue !== QUEUES.payments)
    .flatMap((queue) => [stubHandlers(queue), consumerOf(queue)]),
];

async function registryWith(providers: Provider[]) {
  const register = jest.fn();
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [JobRegistry, { provide: BullRegistrar, useValue: { register } }, ...providers],
  }).compile();
  return { app: moduleRef, register };
}

describe('JobRegistry', () => {
  it('finds the @OnJob handler, runs it with the payload, then starts the consumers', async () => {
    const { app, register } = await registryWith([AttributionHandler, TrackingConsumer, ...PAYMENTS, ...OTHER_QUEUES]);
    await app.init();
    const handler = app.get(JobRegistry).handlerFor(JOBS.affiliateSignup);
    expect(handler).toMatchObject({ job: 'affiliate-signup', queue: 'tracking', owner: 'AttributionHandler.attribute' });
    await expect(handler!.run({ leadId: 'l-1' })).resolves.toBe('handled');
    expect(app.get(AttributionHandler).seen).toEqual([{ leadId: 'l-1' }]);
    expect(register).toHaveBeenCalledTimes(1);
    expect(app.get(JobRegistry).handlerFor('no-such-job')).toBeUndefined();
  });

  it('refuses to start, before any consumer, when a contract job has no handler', async () => {
    const { app, register } = await registryWith([TrackingConsumer, ...PAYMENTS, ...OTHER_QUEUES]);
    await expect(app.init()).rejects.toThrow(/"affiliate-signup" on queue "tracking" has 0 handlers/);
    expect(register).not.toHaveBeenCalled();
  });

  it('refuses to start when the payments jobs have no handlers', async () => {
    const { app, register } = await registryWith([AttributionHandler, TrackingConsumer, PaymentsConsumer, ...OTHER_QUEUES]);
    await expect(app.init()).rejects.toThrow(/"payment-event" on queue "payments" has 0 handlers.*"sandbox-webhook".*"order-paid"/);
    expect(register).not.toHaveBeenCalled();
  });

  it('refuses to start when a job has two handlers, naming both', async () => {
    const { app, register } = await registryWith([
      AttributionHandler,
      SecondAttributionHandler,
      TrackingConsumer,
      ...PAYMENTS,
      ...OTHER_QUEUES,
    ]);
    await expect(app.init()).rejects.toThrow(/has 2 handlers \(AttributionHandler.attribute, SecondAttributionHandler.attribute\)/);
    expect(register).not.toHaveBeenCalled();
  });

  it('refuses to start when the invitation e-mail has no handler', async () => {
    const { app, register } = await registryWith([AttributionHandler, TrackingConsumer, ...PAYMENTS, InvitationsConsumer]);
    await expect(app.init()).rejects.toThrow(/"invitation-email" on queue "invitations" has 0 handlers/);
    expect(register).not.toHaveBeenCalled();
  });

  it("refuses to start when the job's queue has no processor", async () => {
    const { app } = await registryWith([AttributionHandler, ...PAYMENTS, ...OTHER_QUEUES]);
    await expect(app.init()).rejects.toThrow(/queue "tracking" has 0 processors/);
  });
});

describe('assertEveryJobHandled', () => {
  const handlers = (Object.keys(JOB_QUEUE) as JobName[]).map((job) => ({ job, queue: JOB_QUEUE[job], owner: `A.${job}` }));

  it('accepts one handler per job with one processor per queue', () => {
    expect(() => assertEveryJobHandled(handlers, Object.values(QUEUES))).not.toThrow();
  });

  it('rejects a queue with two processors', () => {
    expect(() => assertEveryJobHandled(handlers, [QUEUES.tracking, ...Object.values(QUEUES)])).toThrow(/queue "tracking" has 2 processors/);
  });
});
