/**
 * Queue names, job names and payloads. These strings are persisted (in Redis and in the outbox
 * table), so they are defined here once and never renamed casually.
 */
export const QUEUES = {
  tracking: 'tracking',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOBS = {
  leadAttribution: 'lead-attribution',
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface LeadAttributionPayload {
  leadId: string;
}

/** Every job the system can run: the discriminated union the producer and processors share. */
export type JobItem = { name: typeof JOBS.leadAttribution; data: LeadAttributionPayload };

export type JobPayload<N extends JobName> = Extract<JobItem, { name: N }>['data'];

/** Which queue carries each job: the worker checks at start that each has exactly one `@OnJob` handler. */
export const JOB_QUEUE: Readonly<Record<JobName, QueueName>> = {
  [JOBS.leadAttribution]: QUEUES.tracking,
};

/**
 * Kinds of external side effects in the `side_effects` ledger. Persisted like job names: a
 * ledger key is `<kind>:<subject id>` and is sent to the provider as the idempotency key.
 */
export const SIDE_EFFECTS = {
  affiliateSignup: 'affiliate-signup',
} as const;

export type SideEffectKind = (typeof SIDE_EFFECTS)[keyof typeof SIDE_EFFECTS];
