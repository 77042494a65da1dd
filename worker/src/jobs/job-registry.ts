import { BullRegistrar } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { JOB_QUEUE, JobName, QueueName } from '@contracts/jobs';
import { JOB_HANDLER_METADATA, JobHandlerMetadata, JobOutcome } from './on-job.decorator';

/**
 * The metadata key @nestjs/bullmq's @Processor sets (its bull.constants, which the package's
 * exports no longer reach); job-registry.spec.ts fails if a new version renames it.
 */
const PROCESSOR_METADATA = 'bullmq:processor_metadata';

export interface DiscoveredHandler extends JobHandlerMetadata {
  /** `Class.method`, for the start-up check's message. */
  owner: string;
  run: (data: unknown) => Promise<JobOutcome>;
}

/**
 * The worker's job handlers, found by their `@OnJob` decorators on providers. Start-up fails
 * unless every contract job has exactly one handler and its queue has a processor; only then are
 * the BullMQ consumers started, so a worker that cannot run a job never takes one.
 */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly handlers = new Map<string, DiscoveredHandler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly bull: BullRegistrar,
  ) {}

  onModuleInit(): void {
    const { handlers, processorQueues } = this.discover();
    assertEveryJobHandled(handlers, processorQueues);
    for (const handler of handlers) this.handlers.set(handler.job, handler);
    this.bull.register();
  }

  handlerFor(job: string): DiscoveredHandler | undefined {
    return this.handlers.get(job);
  }

  private discover(): { handlers: DiscoveredHandler[]; processorQueues: QueueName[] } {
    const handlers: DiscoveredHandler[] = [];
    const processorQueues: QueueName[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      const metatype = wrapper.metatype;
      if (!instance || typeof instance !== 'object' || !metatype) continue;
      const processor = Reflect.getMetadata(PROCESSOR_METADATA, metatype) as { name: QueueName } | undefined;
      if (processor) processorQueues.push(processor.name);
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const meta = Reflect.getMetadata(JOB_HANDLER_METADATA, prototype[method] as object) as JobHandlerMetadata | undefined;
        if (!meta) continue;
        const fn = prototype[method] as (data: unknown) => Promise<JobOutcome>;
        handlers.push({ ...meta, owner: `${metatype.name}.${method}`, run: (data) => fn.call(instance, data) });
      }
    }
    return { handlers, processorQueues };
  }
}

/** Every contract job has exactly one handler, on the queue JOB_QUEUE names, which has a processor. */
export function assertEveryJobHandled(
  handlers: ReadonlyArray<Pick<DiscoveredHandler, 'job' | 'queue' | 'owner'>>,
  processorQueues: readonly QueueName[],
): void {
  const problems: string[] = [];
  for (const [job, queue] of Object.entries(JOB_QUEUE) as Array<[JobName, QueueName]>) {
    const owners = handlers.filter((h) => h.job === job);
    if (owners.length !== 1) {
      const where = owners.length ? ` (${owners.map((h) => h.owner).join(', ')})` : '';
      problems.push(`job "${job}" on queue "${queue}" has ${owners.length} handlers${where}`);
    }
    const processors = processorQueues.filter((q) => q === queue).length;
    if (processors !== 1 && !problems.some((p) => p.startsWith(`queue "${queue}"`))) {
      problems.push(`queue "${queue}" has ${processors} processors`);
    }
  }
  for (const handler of handlers) {
    if (!(handler.job in JOB_QUEUE)) problems.push(`${handler.owner} handles "${handler.job}", which is not a contract job`);
  }
  if (problems.length) throw new Error(`Job handler check failed: ${problems.join('; ')}`);
}
