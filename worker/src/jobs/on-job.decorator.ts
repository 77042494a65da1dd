import { SetMetadata } from '@nestjs/common';
import { JOB_QUEUE, JobName, JobPayload, QueueName } from '@contracts/jobs';

export const JOB_HANDLER_METADATA = 'clear:job-handler';

export interface JobHandlerMetadata {
  job: JobName;
  queue: QueueName;
}

/** What a handler resolves with: a short outcome label for the log, never personal data. */
export type JobOutcome = string;

export type JobHandlerMethod<N extends JobName> = (data: JobPayload<N>) => Promise<JobOutcome>;

/**
 * Registers the decorated method as the one handler of `job` (its queue comes from JOB_QUEUE);
 * the method's parameter is typed from the job name. The worker discovers these at start and
 * refuses to start unless every contract job has exactly one.
 */
export function OnJob<N extends JobName>(job: N) {
  return <M extends JobHandlerMethod<N>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => {
    SetMetadata<string, JobHandlerMetadata>(JOB_HANDLER_METADATA, { job, queue: JOB_QUEUE[job] })(target, key, descriptor);
  };
}
