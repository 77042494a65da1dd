import { JOB_QUEUE, JobName } from '@contracts/jobs';

/**
 * The job names this process's relay hands to BullMQ: the contract it was built with. Rows
 * naming any other job (written by a newer API) stay in the outbox for a worker that knows them.
 */
export const RELAYED_JOBS = Symbol('RELAYED_JOBS');

export const contractJobNames = (): JobName[] => Object.keys(JOB_QUEUE) as JobName[];
