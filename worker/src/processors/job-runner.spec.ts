import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DelayedError, UnrecoverableError } from 'bullmq';
import type { JobRegistry } from '../jobs/job-registry';
import type { OutboxOutcomeRecorder } from '../ledger/outbox-outcome-recorder';
import { JobRunner } from './job-runner';

const ROW_ID = '0b8f6a52-3c1d-4e4f-9a7b-123456789abc';

function job(name: string, attemptsMade = 0, attempts = 3): Job {
  return {
    id: ROW_ID,
    name,
    data: { leadId: 'lead-1' },
    attemptsMade,
    opts: { attempts },
    moveToDelayed: jest.fn(async () => undefined),
  } as unknown as Job;
}

function runnerWith(run?: (data: unknown) => Promise<string>) {
  const registry = { handlerFor: (name: string) => (run && name === 'affiliate-signup' ? { run } : undefined) } as unknown as JobRegistry;
  const ledger = { markCompleted: jest.fn(), markFailed: jest.fn(), noteError: jest.fn() };
  return { runner: new JobRunner(registry, ledger as unknown as OutboxOutcomeRecorder), ledger };
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

  it('notes a retryable error, parks the row on the last attempt, and never logs or stores an e-mail address', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new Error('Provider said: jane.doe@example.com is invalid');
    });
    await expect(runner.run(job('affiliate-signup', 0, 3), undefined)).rejects.toThrow();
    expect(ledger.noteError).toHaveBeenCalledWith(ROW_ID, 'Provider said: [email] is invalid');
    await expect(runner.run(job('affiliate-signup', 2, 3), undefined)).rejects.toThrow();
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'Provider said: [email] is invalid');
    expect(JSON.stringify(warn.mock.calls)).not.toContain('example.com');
    expect(warn.mock.calls[1][0]).toMatchObject({
      job: 'affiliate-signup',
      attempt: 3,
      lastAttempt: true,
      err: 'Provider said: [email] is invalid',
    });
  });

  it('parks the row at once on an unrecoverable error', async () => {
    const { runner, ledger } = runnerWith(async () => {
      throw new UnrecoverableError('bad payload');
    });
    await expect(runner.run(job('affiliate-signup', 0, 10), undefined)).rejects.toThrow('bad payload');
    expect(ledger.markFailed).toHaveBeenCalledWith(ROW_ID, 'bad payload');
  });
});
