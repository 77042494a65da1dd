import { AdminAccount } from './admin-account.entity';
import { AdminAuditEntry } from './admin-audit-entry.entity';
import { AdminSession } from './admin-session.entity';
import { FunnelEvent } from './funnel-event.entity';
import { Invitation } from './invitation.entity';
import { InvitationSubmission } from './invitation-submission.entity';
import { InvitationToken } from './invitation-token.entity';
import { Lead } from './lead.entity';
import { LeadSubmission } from './lead-submission.entity';
import { Order } from './order.entity';
import { OutboxEntry } from './outbox-entry.entity';
import { PaymentEvent } from './payment-event.entity';
import { SandboxObject } from './sandbox-object.entity';
import { SideEffect } from './side-effect.entity';
import { Testimonial } from './testimonial.entity';

export {
  AdminAccount,
  AdminAuditEntry,
  AdminSession,
  FunnelEvent,
  Invitation,
  InvitationSubmission,
  InvitationToken,
  Lead,
  LeadSubmission,
  Order,
  OutboxEntry,
  PaymentEvent,
  SandboxObject,
  SideEffect,
  Testimonial,
};

/** Listed explicitly (no globs) so a build never silently misses an entity. */
export const ENTITIES = [
  AdminAccount,
  AdminAuditEntry,
  AdminSession,
  FunnelEvent,
  Invitation,
  InvitationSubmission,
  InvitationToken,
  Lead,
  LeadSubmission,
  Order,
  OutboxEntry,
  PaymentEvent,
  SandboxObject,
  SideEffect,
  Testimonial,
];
