import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { AdminInstalmentStop } from '@contracts/admin';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import type { InstalmentStop } from '@core/database/repositories/order.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';

type Refusal = Extract<InstalmentStop, { refused: string }>['refused'];

const REFUSALS: Readonly<Record<Exclude<Refusal, 'not found'>, string>> = {
  'not an instalment plan': 'This order is not an instalment plan.',
  'not paid': 'This instalment plan has not been paid yet: there is nothing to stop.',
  'access revoked': "This order's access was ended by a refund or a lost dispute: its instalments are stopped already.",
  'paid in full': 'This instalment plan is paid in full: there is nothing left to stop.',
};

/**
 * The orders screen's 'Stop instalments': no later instalment of the plan is charged. The stop
 * and its audit entry are written in one transaction that owes the provider's cancellation of the
 * schedule (`stop-instalments`, through the worker's ledger), so the answer never waits on the
 * provider and a retried request stops once.
 */
@Injectable()
export class InstalmentStopsService {
  private readonly logger = new Logger(InstalmentStopsService.name);

  constructor(
    private readonly lifecycle: OrderLifecycle,
    private readonly audit: AuditRepository,
  ) {}

  async stop(orderId: string, admin: { adminId: string; clientIp: string | undefined }): Promise<AdminInstalmentStop> {
    const stop = await this.lifecycle.stopInstalments(orderId, (manager) =>
      this.audit.record(
        { adminId: admin.adminId, action: 'order.stop-instalments', target: `order:${orderId}`, clientIp: admin.clientIp },
        manager,
      ),
    );
    if ('refused' in stop) {
      if (stop.refused === 'not found') throw new NotFoundException('There is no order with this id.');
      throw new BadRequestException(REFUSALS[stop.refused]);
    }
    this.logger.log({ orderId }, 'Instalments stopped by an admin');
    return { orderId, instalmentsStoppedAt: stop.stoppedAt.toISOString() };
  }
}
