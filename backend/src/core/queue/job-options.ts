import type { JobsOptions } from 'bullmq';
import type { AppConfig } from '../config/app-config';

/** Retry with exponential backoff and jitter; keep enough finished jobs to inspect, not more. */
export function defaultJobOptions(config: AppConfig): JobsOptions {
  return {
    attempts: config.JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.JOB_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: { count: 1000, age: 24 * 3600 },
    removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
  };
}
