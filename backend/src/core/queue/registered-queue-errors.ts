import { getQueueToken } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { QUEUES } from '@contracts/jobs';
import { readyBeforeClose } from './bullmq-ready';

/**
 * The queues @nestjs/bullmq registers in the worker (its processors read their options) are
 * BullMQ objects like any other: a Redis connection closing under them (a restart, the worker
 * shutting down mid-connect) is an 'error' event, which Node throws when nobody listens. Listens,
 * and says so at most every 10 s.
 */
@Injectable()
export class RegisteredQueueErrors implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(RegisteredQueueErrors.name);
  private lastLog = 0;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const queue of this.queues()) {
      const name = queue.name;
      queue.on('error', (err) => {
        const now = Date.now();
        if (now - this.lastLog < 10_000) return;
        this.lastLog = now;
        this.logger.warn(`Queue "${name}" lost Redis for a moment: ${err.message}`);
      });
    }
  }

  /** Before @nestjs/bullmq closes the queues: their connections finish connecting first (bullmq-ready.ts). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues().map((queue) => readyBeforeClose(() => queue.waitUntilReady())));
  }

  private queues(): Queue[] {
    return Object.values(QUEUES).map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
  }
}
