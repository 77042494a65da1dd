import { Global, Module } from '@nestjs/common';
import { PERSONAL_DATA_OWNERS } from '../personal-data';
import { FunnelEventRepository } from './funnel-event.repository';
import { InvitationRepository } from './invitation.repository';
import { LeadRepository } from './lead.repository';
import { OrderRepository } from './order.repository';
import { OutboxRepository } from './outbox.repository';
import { PaymentEventRepository } from './payment-event.repository';
import { ProviderCallRepository } from './provider-call.repository';
import { SandboxObjectRepository } from './sandbox-object.repository';

/**
 * Every repository, for the API and the worker alike. The only place SQL lives (with the
 * migrations); each table has one owner here and one row type.
 */
const REPOSITORIES = [
  LeadRepository,
  InvitationRepository,
  OrderRepository,
  SandboxObjectRepository,
  PaymentEventRepository,
  FunnelEventRepository,
  OutboxRepository,
  ProviderCallRepository,
];

/** Repositories that store personal data, composed by the admin's export and erase. */
const PERSONAL_DATA_OWNER_CLASSES: Array<(typeof REPOSITORIES)[number]> = [];

@Global()
@Module({
  providers: [
    ...REPOSITORIES,
    {
      provide: PERSONAL_DATA_OWNERS,
      inject: PERSONAL_DATA_OWNER_CLASSES,
      useFactory: (...owners: unknown[]) => owners,
    },
  ],
  exports: [...REPOSITORIES, PERSONAL_DATA_OWNERS],
})
export class RepositoriesModule {}
