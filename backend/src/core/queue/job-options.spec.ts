import type { MinimalJob } from 'bullmq';
import { loadConfig } from '../config/app-config';
import {
  attemptsWithin,
  CAPPED_EXPONENTIAL,
  cappedExponentialBackoff,
  type CappedBackoff,
  defaultJobOptions,
  isPastHorizon,
  nominalDelay,
} from './job-options';

const jobWith = (backoff: CappedBackoff) => ({ opts: { backoff } }) as unknown as MinimalJob;
const BACKOFF: CappedBackoff = { type: CAPPED_EXPONENTIAL, delay: 1000, jitter: 0.5, maxDelay: 3_600_000 };

describe('capped exponential backoff', () => {
  afterEach(() => jest.restoreAllMocks());

  it('doubles from the base delay and never waits longer than the cap', () => {
    expect([1, 2, 3, 4].map((retry) => nominalDelay(retry, 1000, 3_600_000))).toEqual([1000, 2000, 4000, 8000]);
    expect(nominalDelay(12, 1000, 3_600_000)).toBe(2_048_000);
    expect(nominalDelay(13, 1000, 3_600_000)).toBe(3_600_000);
    // Far past the point where 2^k alone would overflow.
    expect(nominalDelay(5000, 1000, 3_600_000)).toBe(3_600_000);
  });

  it('draws each wait between half and all of its nominal delay, capped', () => {
    const strategy = (attemptsMade: number, backoff = BACKOFF) =>
      cappedExponentialBackoff(attemptsMade, CAPPED_EXPONENTIAL, undefined, jobWith(backoff));
    jest.spyOn(Math, 'random').mockReturnValue(0);
    expect(strategy(1)).toBe(500);
    expect(strategy(40)).toBe(1_800_000);
    jest.spyOn(Math, 'random').mockReturnValue(0.999999);
    expect(strategy(3)).toBe(3999);
    expect(strategy(40)).toBe(3_599_998);
    expect(strategy(10_000, { ...BACKOFF, maxDelay: 250 })).toBeLessThanOrEqual(250);
  });

  it('gives BullMQ attempts enough to outlast the horizon even when every wait is as short as the jitter allows', () => {
    const horizonMs = 259_200_000;
    const attempts = attemptsWithin(horizonMs, 1000, 3_600_000);
    const shortest = (retries: number) =>
      Array.from({ length: retries }, (_, i) => nominalDelay(i + 1, 1000, 3_600_000) / 2).reduce((a, b) => a + b, 0);
    expect(shortest(attempts - 1)).toBeGreaterThanOrEqual(horizonMs);
    // …and not many more: one retry fewer would not be enough.
    expect(shortest(attempts - 2)).toBeLessThan(horizonMs);
    // Far more than the ten attempts (about nine minutes) jobs used to get.
    expect(attempts).toBeGreaterThan(100);
  });

  it('counts a job as given up only once its horizon has passed since it was handed to BullMQ', () => {
    expect(isPastHorizon(1_000, 1_000 + 59_999, 60_000)).toBe(false);
    expect(isPastHorizon(1_000, 1_000 + 60_000, 60_000)).toBe(true);
  });

  it('builds every job from the configuration: three days of retries, an hour at most between two', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x' });
    const options = defaultJobOptions(config);
    expect(options.backoff).toEqual(BACKOFF);
    expect(options.attempts).toBe(attemptsWithin(259_200_000, 1000, 3_600_000));
    const short = defaultJobOptions(
      loadConfig({
        DATABASE_URL: 'postgres://x/y',
        REDIS_URL: 'redis://x',
        JOB_RETRY_HORIZON_S: '2',
        JOB_BACKOFF_MS: '100',
        JOB_BACKOFF_MAX_MS: '400',
      }),
    );
    expect(short.backoff).toEqual({ type: CAPPED_EXPONENTIAL, delay: 100, jitter: 0.5, maxDelay: 400 });
    // Shortest waits 50 + 100 + 200 + 9 × 200 = 2150 ms ≥ 2 s: twelve retries, thirteen attempts.
    expect(short.attempts).toBe(13);
  });
});
