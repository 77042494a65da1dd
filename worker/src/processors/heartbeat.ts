import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { rmSync, writeFileSync } from 'node:fs';
import { QueueConfig } from '@core/config/config-sections';
import { InvitationsProcessor } from './invitations.processor';
import { MaintenanceProcessor } from './maintenance.processor';
import { PaymentsProcessor } from './payments.processor';
import { TrackingProcessor } from './tracking.processor';

/** How often the heartbeat file is touched; a health check should allow a few missed beats. */
const HEARTBEAT_INTERVAL_MS = 5000;

/** What the heartbeat needs of a queue processor: whether its BullMQ worker consumes. */
interface Consumer {
  worker: { isRunning(): boolean };
}

/**
 * The worker's liveness for a health check (it serves no HTTP): while every queue consumer runs,
 * WORKER_HEARTBEAT_FILE is rewritten every HEARTBEAT_INTERVAL_MS. A blocked event loop or a
 * consumer that stopped leaves the file to grow old; a worker shutting down removes it.
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WorkerHeartbeat');
  private readonly consumers: Consumer[];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: QueueConfig,
    tracking: TrackingProcessor,
    payments: PaymentsProcessor,
    invitations: InvitationsProcessor,
    maintenance: MaintenanceProcessor,
  ) {
    this.consumers = [tracking, payments, invitations, maintenance];
  }

  onApplicationBootstrap(): void {
    if (!this.config.WORKER_HEARTBEAT_FILE) return;
    this.timer = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS).unref();
    this.beat();
  }

  /** Touches the file when every consumer runs; says so once when it cannot be written. */
  beat(): boolean {
    const file = this.config.WORKER_HEARTBEAT_FILE;
    if (!file || !this.consumers.every((c) => c.worker.isRunning())) return false;
    try {
      writeFileSync(file, `${new Date().toISOString()}\n`);
      return true;
    } catch (err) {
      clearInterval(this.timer);
      this.logger.error(`Cannot write WORKER_HEARTBEAT_FILE: ${(err as Error).message}; no heartbeat from now on`);
      return false;
    }
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
    if (this.config.WORKER_HEARTBEAT_FILE) rmSync(this.config.WORKER_HEARTBEAT_FILE, { force: true });
  }
}
