import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DelayedError, UnrecoverableError } from 'bullmq';
import type { AppConfig } from '@core/config/app-config';
import type { JobRegistry } from '../jobs/job-registry';
import type { OutboxOutcomeRecorder } from '../ledger/outbox-outcome-recorder';
import { JobRunner } from './job-runner';

const ROW_ID = '0b8f6a52-3c1d-4e4f-9a7b-123456789abc';

const HORIZON_S = 3600;

/** A job handed to BullMQ `ageMs` ago that has failed `attemptsMade` times (and stalled `stalledCounter` times). */
function job(name: string, attemptsMade = 0, attempts = 300, ageMs = 0, stalledCounter = 0): Job {
  return {
    id: ROW_ID,
    name,
    data: { leadId: 'lead-1' },
    attemptsMade,
    stalledCounter,
    timestamp: Date.now() - ageMs,
    opts: { attempts },
    moveToDelayed: jest.fn(async () => undefined),
  } as unknown as Job;
}

function runnerWith(run?: (data: unknown) => Promise<string>) {
  const registry = { handlerFor: (name: string) => (run && name === 'affiliate-signup' ? { run } : undefined) } as unknown as JobRegistry;
  const ledger = { markCompleted: jest.fn(), markFailed: jest.fn(), noteError: jest.fn() };
  const config = { JOB_RETRY_HORIZON_S: HORIZON_S } as AppConfig;
  return { runner: new JobRunner(registry, ledger as unknown as OutboxOutcomeRecorder, config), ledger };
}

describe('JobRunner', () => {
  let log: jest.SpyInstance;
  let warn: jest.SpyInstance;
  beforeEach(() => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('runs the registered handler, stamps the outbox row done and logs ids and the outcome only', async () => {
    const { runner, ledger } = runnerWith(async () => 'sent');
    await expect(runner.run(job('affiliate-signup'), 'token')).resolves.toBe('sent');
    expect(ledger.markCompleted).toHaveBeenCalledWith(ROW_ID);
    expect(log).toHaveBeenCalledWith({ jobId: ROW_ID, job: 'affiliate-signup', attempt: 1, outcome: 'sent' }, 'Job done');
  });

  it('delays a job it has no handler for without using an attempt or touching its outbox row', async () => {
    const { runner, ledger } = runnerWith();
    const unknown = job('future-job');
    await expect(runner.run(unknown, 'token')).rejects.toBeInstanceOf(DelayedError);
    expect(unknown.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token');
    expect(ledger.markFailed).not.toHaveBeenCalled();
    expect(ledger.noteError).not.toHaveBeenCalled();
  });

  it('runs a job whose workers died under it within its horizon, and gives it up visibly after, without running it', async () => {
    const handler = jest.fn(async () => 'sent');
    const { runner, ledger } = runnerWith(handler);
    await expect(runner.run(job('affiliate-signup', 0, 300, HORIZON_S * 1000 - 1000, 5), 'token')).resolves.toBe('sent');
    expect(ledger.markCompleted).toHaveBeenCalledWith(ROW_ID);

    handler.mockClear();
    const failure = await runner.run(job('affiliate-signup', 0, 300, HORIZON_S * 1000 + 1000, 5), 'token').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UnrecoverableError);
    expect(handler).not.toHaveBeenCalled();
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'The worker running this job stopped 5 time(s) before it finished');
    expect(warn.mock.calls[0][0]).toMatchObject({ job: 'affiliate-signup', gaveUp: true });
  });

  it('keeps retrying within the horizon, however many attempts failed, and never logs or stores an e-mail address', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new Error('Provider said: jane.doe@example.com is invalid');
    });
    // Ten failed attempts used to park a job for good; within its horizon it keeps retrying.
    const failure = await runner.run(job('affiliate-signup', 10, 300, HORIZON_S * 1000 - 1000), undefined).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(UnrecoverableError);
    expect(ledger.noteError).toHaveBeenCalledWith(ROW_ID, 'Provider said: [email] is invalid');
    expect(ledger.markFailed).not.toHaveBeenCalled();
    expect(JSON.stringify(warn.mock.calls)).not.toContain('example.com');
    expect(warn.mock.calls[0][0]).toMatchObject({ job: 'affiliate-signup', attempt: 11, gaveUp: false });
  });

  it('gives up once the horizon has passed: parks the row with the reason and tells BullMQ not to retry', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new Error('Provider said: jane.doe@example.com is invalid');
    });
    const failure = await runner.run(job('affiliate-signup', 3, 300, HORIZON_S * 1000), undefined).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UnrecoverableError);
    expect((failure as Error).message).toBe('Provider said: [email] is invalid');
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'Provider said: [email] is invalid');
    expect(ledger.noteError).not.toHaveBeenCalled();
    expect(warn.mock.calls[0][0]).toMatchObject({ job: 'affiliate-signup', attempt: 4, gaveUp: true });
  });

  it('parks the row when BullMQ has no attempts left, even within the horizon', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new Error('still down');
    });
    await expect(runner.run(job('affiliate-signup', 2, 3), undefined)).rejects.toThrow('still down');
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'still down');
  });

  it('parks the row at once on an unrecoverable error', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new UnrecoverableError('bad payload');
    });
    await expect(runner.run(job('affiliate-signup', 0, 10), undefined)).rejects.toThrow('bad payload');
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'bad payload');
  });
});
