import { BullRegistrar, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JOB_QUEUE, JobName, JOBS, AffiliateSignupPayload, QUEUES } from '@contracts/jobs';
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

  @OnJob(JOBS.membershipWebhook)
  async notify(): Promise<string> {
    return 'sent';
  }
}

@Injectable()
class SecondAttributionHandler {
  @OnJob(JOBS.affiliateSignup)
  async attribute(): Promise<string> {
    return 'again';
  }
}

@Processor(QUEUES.tracking)
class TrackingConsumer extends WorkerHost {
  async process(): Promise<void> {}
}

/** The payments queue's jobs, so that only the tracking job varies between these cases. */
@Injectable()
class PaymentHandlers {
  @OnJob(JOBS.paymentEvent)
  async apply(): Promise<string> {
    return 'applied';
  }

  @OnJob(JOBS.sandboxWebhook)
  async deliver(): Promise<string> {
    return 'delivered';
  }

  @OnJob(JOBS.orderPaid)
  async settle(): Promise<string> {
    return 'settled';
  }

  @OnJob(JOBS.paymentPaid)
  async settlePayment(): Promise<string> {
    return 'settled';
  }

  @OnJob(JOBS.forgetCustomer)
  async forget(): Promise<string> {
    return 'deleted';
  }

  @OnJob(JOBS.scheduleInstalments)
  async schedule(): Promise<string> {
    return 'scheduled';
  }

  @OnJob(JOBS.stopInstalments)
  async stopInstalments(): Promise<string> {
    return 'stopped';
  }

  @OnJob(JOBS.paymentFailed)
  async paymentFailed(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.membershipEnded)
  async membershipEnded(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.membershipCanceled)
  async membershipCanceled(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.pauseEnding)
  async pauseEnding(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.refundRecorded)
  async refunded(): Promise<string> {
    return 'refunded';
  }

  @OnJob(JOBS.disputeChanged)
  async disputed(): Promise<string> {
    return 'e-mailed';
  }
}

@Processor(QUEUES.payments)
class PaymentsConsumer extends WorkerHost {
  async process(): Promise<void> {}
}

const PAYMENTS = [PaymentHandlers, PaymentsConsumer];

@Injectable()
class InvitationHandlers {
  @OnJob(JOBS.invitationEmail)
  async send(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.accountLinkEmail)
  async sendLink(): Promise<string> {
    return 'sent';
  }

  @OnJob(JOBS.abandonedCheckoutEmail)
  async remind(): Promise<string> {
    return 'sent';
  }
}

@Processor(QUEUES.invitations)
class InvitationsConsumer extends WorkerHost {
  async process(): Promise<void> {}
}

@Injectable()
class MaintenanceHandlers {
  @OnJob(JOBS.dataRetention)
  async purge(): Promise<string> {
    return 'purged';
  }

  @OnJob(JOBS.repairPaymentIds)
  async repairPaymentIds(): Promise<string> {
    return 'repaired';
  }
}

@Processor(QUEUES.maintenance)
class MaintenanceConsumer extends WorkerHost {
  async process(): Promise<void> {}
}

/** The other queues' jobs, always handled in the cases below. */
const OTHER_QUEUES = [InvitationHandlers, InvitationsConsumer, MaintenanceHandlers, MaintenanceConsumer];

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
    expect(() => assertEveryJobHandled(handlers, [QUEUES.tracking, QUEUES.payments, QUEUES.invitations, QUEUES.maintenance])).not.toThrow();
  });

  it('rejects a queue with two processors', () => {
    expect(() =>
      assertEveryJobHandled(handlers, [QUEUES.tracking, QUEUES.tracking, QUEUES.payments, QUEUES.invitations, QUEUES.maintenance]),
    ).toThrow(/queue "tracking" has 2 processors/);
  });
});
