import type { BackoffOptions, BackoffStrategy, JobsOptions, MinimalJob } from 'bullmq';
import type { QueueConfig } from '../config/config-sections';

/** The backoff type of every job: exponential, capped. The worker's `cappedExponentialBackoff` computes it. */
export const CAPPED_EXPONENTIAL = 'capped-exponential';

/** Each retry waits a random time between (1 - JITTER) and 1 times its nominal delay. */
const JITTER = 0.5;

/** BullMQ's backoff options plus the cap, carried by each job so a retry never depends on the worker's settings. */
export interface CappedBackoff extends BackoffOptions {
  type: typeof CAPPED_EXPONENTIAL;
  delay: number;
  jitter: number;
  maxDelay: number;
}

/** The nominal delay before retry `retry` (1 = the first retry): delay·2^(retry-1), never more than maxDelay. */
export function nominalDelay(retry: number, delay: number, maxDelay: number): number {
  // 2^k overflows to Infinity long before it matters; min() keeps it finite.
  return Math.min(delay * 2 ** Math.max(retry - 1, 0), maxDelay);
}

/**
 * The worker's backoff strategy for CAPPED_EXPONENTIAL: BullMQ's exponential backoff with its
 * jitter, capped at the job's maxDelay. BullMQ calls it with the attempts made so far (1 before
 * the first retry).
 */
export const cappedExponentialBackoff: BackoffStrategy = (attemptsMade: number, _type?: string, _err?: Error, job?: MinimalJob) => {
  const backoff = job?.opts.backoff as Partial<CappedBackoff> | undefined;
  const delay = backoff?.delay ?? 1000;
  const nominal = nominalDelay(attemptsMade, delay, backoff?.maxDelay ?? Number.POSITIVE_INFINITY);
  const jitter = backoff?.jitter ?? 0;
  return Math.floor(nominal * (1 - jitter) + Math.random() * nominal * jitter);
};

/**
 * Attempts enough to keep retrying for the whole horizon even if every wait is as short as the
 * jitter allows: BullMQ needs a number, but a job gives up by time (see `isPastHorizon`), not by
 * count. Bounded so a tiny base delay with a long horizon cannot ask for millions.
 */
export function attemptsWithin(horizonMs: number, delay: number, maxDelay: number, jitter = JITTER): number {
  let waited = 0;
  let retries = 0;
  while (waited < horizonMs && retries < 100_000) {
    retries += 1;
    waited += nominalDelay(retries, delay, maxDelay) * (1 - jitter);
  }
  return retries + 1;
}

/** Whether a job first handed to BullMQ at `addedAt` (ms) has used up its retry horizon at `now`. */
export function isPastHorizon(addedAt: number, now: number, horizonMs: number): boolean {
  return now - addedAt >= horizonMs;
}

/**
 * Retry with capped exponential backoff and jitter for JOB_RETRY_HORIZON_S; keep enough finished
 * jobs to inspect, not more. A job that gives up stays in Redis a week (the queue page's failed
 * list) and in the outbox for good (the admin's list of jobs that gave up).
 */
export function defaultJobOptions(config: QueueConfig): JobsOptions {
  const backoff: CappedBackoff = {
    type: CAPPED_EXPONENTIAL,
    delay: config.JOB_BACKOFF_MS,
    jitter: JITTER,
    maxDelay: config.JOB_BACKOFF_MAX_MS,
  };
  return {
    attempts: attemptsWithin(config.JOB_RETRY_HORIZON_S * 1000, config.JOB_BACKOFF_MS, config.JOB_BACKOFF_MAX_MS),
    backoff,
    removeOnComplete: { count: 1000, age: 24 * 3600 },
    removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
  };
}
