import { JOBS, QUEUES } from '../../../backend/src/shared/contracts/jobs';
import { assertEveryJobHandled } from './job-runner';
import { TrackingProcessor } from './tracking.processor';

describe('assertEveryJobHandled', () => {
  it('accepts the processors the worker registers', () => {
    expect(() => assertEveryJobHandled([{ queue: TrackingProcessor.queue, jobs: TrackingProcessor.jobs }])).not.toThrow();
  });

  it('fails when a contract job has no handler', () => {
    expect(() => assertEveryJobHandled([])).toThrow(/"lead-attribution" on queue "tracking" has 0 handlers/);
  });

  it('fails when a job has two handlers', () => {
    const p = { queue: QUEUES.tracking, jobs: [JOBS.leadAttribution] };
    expect(() => assertEveryJobHandled([p, p])).toThrow(/has 2 handlers/);
  });
});
