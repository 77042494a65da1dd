import { Injectable, Logger } from '@nestjs/common';
import { JOBS } from '@contracts/jobs';
import { OpsConfig } from '@core/config/config-sections';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { CancellationFeedbackRepository } from '@core/database/repositories/cancellation-feedback.repository';
import { FunnelEventRepository } from '@core/database/repositories/funnel-event.repository';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { ProviderCallRepository } from '@core/database/repositories/provider-call.repository';
import { OnJob } from '../jobs/on-job.decorator';

/** Rows deleted (or, for the audit log, addresses cleared) by one retention pass, per kind. */
interface RetentionCounts {
  paymentEvents: number;
  outbox: number;
  sideEffects: number;
  funnelEvents: number;
  auditClientIps: number;
  cancellationDetails: number;
}

/**
 * The daily retention pass (scheduled by RetentionSchedule): applied payment events, finished
 * outbox rows and side-effect records, and funnel events older than RETENTION_DAYS are deleted;
 * audit entries older than AUDIT_IP_RETENTION_DAYS lose their client address, and cancellation
 * answers older than RETENTION_DAYS their free text. Orders, leads and
 * anything still open or owed stay. Each batch of RETENTION_BATCH_SIZE rows is one short
 * statement of its own, so a large table is never locked for long, and rows another run holds
 * are skipped: two passes at once share the work. Only counts are logged.
 */
@Injectable()
export class DataRetentionHandler {
  private readonly logger = new Logger(DataRetentionHandler.name);

  constructor(
    private readonly config: OpsConfig,
    private readonly paymentEvents: PaymentEventRepository,
    private readonly outbox: OutboxRepository,
    private readonly sideEffects: ProviderCallRepository,
    private readonly funnelEvents: FunnelEventRepository,
    private readonly audit: AuditRepository,
    private readonly cancellations: CancellationFeedbackRepository,
  ) {}

  @OnJob(JOBS.dataRetention)
  async purge(): Promise<string> {
    const { RETENTION_DAYS: days, AUDIT_IP_RETENTION_DAYS: auditDays } = this.config;
    const counts: RetentionCounts = {
      paymentEvents: await this.inBatches((size) => this.paymentEvents.deleteAppliedBefore(days, size)),
      outbox: await this.inBatches((size) => this.outbox.deleteFinishedBefore(days, size)),
      sideEffects: await this.inBatches((size) => this.sideEffects.deleteFinishedBefore(days, size)),
      funnelEvents: await this.inBatches((size) => this.funnelEvents.deleteBefore(days, size)),
      auditClientIps: await this.inBatches((size) => this.audit.forgetClientIpsBefore(auditDays, size)),
      cancellationDetails: await this.inBatches((size) => this.cancellations.forgetDetailsBefore(days, size)),
    };
    this.logger.log({ retentionDays: days, auditIpRetentionDays: auditDays, ...counts }, 'Retention pass done');
    return Object.entries(counts)
      .map(([kind, n]) => `${kind}=${n}`)
      .join(' ');
  }

  /** Runs one batch after another until a batch comes back short. */
  private async inBatches(batch: (size: number) => Promise<number>): Promise<number> {
    const size = this.config.RETENTION_BATCH_SIZE;
    let total = 0;
    for (;;) {
      const n = await batch(size);
      total += n;
      if (n < size) return total;
    }
  }
}
