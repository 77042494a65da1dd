import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { PastDueRepository } from '@core/database/repositories/past-due.repository';
import { PaymentEventRepository, type PaymentEventRow } from '@core/database/repositories/payment-event.repository';
import { JOBS, PaymentEventPayload } from '@contracts/jobs';
import { PAYMENT_GATEWAY, PaymentEvent, PaymentGateway, PaymentObjectKind, SubscriptionState } from '@core/payments/payment-gateway';
import type { OrderStatus } from '@core/orders/order-state';
import { readOrderStatus } from '@core/payments/order-reads';
import {
  applyReadToOrder,
  notePaymentFailure,
  type LockedOrder,
  type OrderBilling,
  type OrderIdColumn,
  type OrderLookup,
  recordLaterPayment,
  setSubscriptionState,
} from '@core/database/repositories/order.repository';
import { isFinal, orderStatusOfSubscription } from '@core/orders/order-state';
import { owe } from '@core/queue/owe';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { OnJob } from '../jobs/on-job.decorator';
import { RefundEventOutcome, RefundEventsService } from './refund-events.service';

/** Events that report a payment made (a one-time charge, or any invoice of a subscription) or declined, for funnel_payments_total. */
const PAID_EVENTS: ReadonlySet<string> = new Set(['payment_intent.succeeded', 'invoice.paid']);
const DECLINE_EVENTS: ReadonlySet<string> = new Set([
  'payment_intent.payment_failed',
  'setup_intent.setup_failed',
  'invoice.payment_failed',
]);

/** Which provider object an event is about (and so which order), and how to re-read it. */
interface EventSubject extends OrderLookup {
  /** A paid subscription invoice the event reports: recorded as a payment when it is a later one. */
  paidInvoiceId: string | undefined;
  /** An invoice the event says could not be charged: the buyer is told, when it is a later one. */
  failedInvoiceId: string | undefined;
  /** A subscription update (the billing portal's cancel or resume): its terms are re-read onto the order. */
  termsChanged: boolean;
  /** When the provider says it happened, in its own time: a past-due order's grace counts from it. */
  occurredAt: Date | null;
}

/** The earliest of the times given, if any. */
function earliest(times: Array<Date | null>): Date | null {
  return times.reduce<Date | null>((first, at) => (at && (!first || at < first) ? at : first), null);
}

/** The order column that holds each kind of provider object. */
const COLUMN_OF: Readonly<Record<PaymentObjectKind, OrderIdColumn>> = {
  charge: 'payment_intent_id',
  setup: 'setup_intent_id',
  subscription: 'subscription_id',
};

export type PaymentEventOutcome =
  | `applied: ${OrderStatus}`
  | 'recorded: payment'
  | 'already applied'
  | 'skipped: event not found'
  | 'skipped: not an order event'
  | 'skipped: no order'
  | 'skipped: no status change'
  | 'skipped: order settled';

/** The object a neutral event names, by the order column that holds it. */
function subjectOf(event: PaymentEvent | null): EventSubject | null {
  return (
    event && {
      column: COLUMN_OF[event.object],
      objectId: event.objectId,
      orderRef: event.orderRef,
      paidInvoiceId: event.kind === 'subscription.paid' ? event.invoiceId : undefined,
      failedInvoiceId: event.kind === 'subscription.payment_failed' ? event.invoiceId : undefined,
      termsChanged: event.kind === 'subscription.updated',
      occurredAt: event.occurredAt,
    }
  );
}

/** A stored, unapplied event about a payment object an order may hold. */
interface OrderEvent {
  id: string;
  type: string;
  payload: PaymentEventRow['payload'];
  subject: EventSubject;
}

const sameObject = (a: EventSubject, b: EventSubject) => a.column === b.column && a.objectId === b.objectId;

/**
 * Applies a stored webhook event to its order. The event only says which object changed: its
 * current state is re-read from the provider, so a duplicate, a replay or an event delivered out
 * of order applies today's state, and the order's state machine refuses any backward move.
 * Whether the order is newly paid (and owes `order-paid`) is decided by applyOrderStatus under
 * the row lock, so two deliveries never owe it twice.
 */
@Injectable()
export class PaymentEventHandler {
  private readonly logger = new Logger(PaymentEventHandler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: PaymentEventRepository,
    private readonly orders: OrderRepository,
    private readonly pastDue: PastDueRepository,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly refundEvents: RefundEventsService,
    private readonly metrics: PaymentMetrics,
  ) {}

  /**
   * Applies the job's event, then the events stored with it (`moreEventIds`), in order. Events in
   * a row about the same provider object (a subscription created with its first invoice) are
   * applied together: one lock of their order, one read of the object, one transaction. A retry
   * finds those applied already applied.
   */
  @OnJob(JOBS.paymentEvent)
  async apply({ eventId, moreEventIds = [] }: PaymentEventPayload): Promise<string> {
    const ids = [eventId, ...moreEventIds];
    const stored = await this.events.findMany(ids);
    const outcomes: string[] = [];
    let group: OrderEvent[] = [];
    const flush = async () => {
      if (group.length) outcomes.push(...(await this.applyToOrder(group)));
      group = [];
    };
    for (const id of ids) {
      const event = stored.get(id);
      const parsed = event && !event.applied_at ? this.gateway.eventOf({ ...event.payload, id, type: event.type }) : null;
      const subject = parsed && !parsed.after ? subjectOf(parsed) : null;
      if (event && subject) {
        if (group.length && !sameObject(group[0].subject, subject)) await flush();
        group.push({ id, type: event.type, payload: event.payload, subject });
        continue;
      }
      await flush();
      outcomes.push(await this.applyOther(id, event));
    }
    await flush();
    return outcomes.join('; ');
  }

  /** An event that is not about an order's payment object: unknown, applied already, a refund or dispute, or about nothing an order holds. */
  private async applyOther(eventId: string, event: PaymentEventRow | undefined): Promise<PaymentEventOutcome | RefundEventOutcome> {
    if (!event) return 'skipped: event not found';
    if (event.applied_at) return 'already applied';
    // Refunds and disputes have their own service (refund-events.service.ts).
    const after = this.gateway.eventOf({ ...event.payload, id: eventId, type: event.type })?.after;
    if (after) return this.refundEvents.apply(eventId, after);
    await this.events.markApplied([eventId]);
    return 'skipped: not an order event';
  }

  /** Events about one provider object, applied to its order in one transaction; resolves with each one's outcome. */
  private async applyToOrder(events: OrderEvent[]): Promise<PaymentEventOutcome[]> {
    const ids = events.map((e) => e.id);
    const subject = events[0].subject;
    let orderId: string | null = null;
    let learned: OrderStatus | null = null;
    let settled = false;
    const payments: Array<number | null> = [];
    let subscriptionState: SubscriptionState | null = null;
    const outcomes = await this.dataSource.transaction(async (manager): Promise<PaymentEventOutcome[]> => {
      // Lock, then read, then write: two events of one order take turns, so a slower read that
      // started earlier (and may be staler) never commits after a later one. A failed read is
      // thrown: the job retries with backoff, and the events stay unapplied until then. The lock
      // statement reads the row: `order` is it as the application left it. Each event would
      // re-read the object: events applied together share the one read. The order is found by
      // the object in the lock statement itself, which also marks the events applied (they are
      // once this transaction commits, order or none).
      const { status, order } = await applyReadToOrder(
        manager,
        subject,
        async (locked) => {
          // A one-time charge's order in a final status learns nothing from its charge any more:
          // the provider is not asked again (a webhook after the verification poll paid the
          // order), and the event counts as what the order already is.
          if (subject.column === 'payment_intent_id' && isFinal(locked.kind, locked.status)) {
            learned = locked.status;
            settled = true;
            return null;
          }
          if (subject.column !== 'subscription_id') return (learned = await readOrderStatus(this.gateway, subject));
          subscriptionState = await this.gateway.readSubscription(subject.objectId);
          return (learned = orderStatusOfSubscription(subscriptionState));
        },
        ids,
      );
      if (!order) return ids.map(() => 'skipped: no order');
      orderId = order.id;
      if (subscriptionState && order.subscription_id === subject.objectId) {
        await this.noteSubscriptionState(manager, order, subscriptionState, earliest(events.map((e) => e.subject.occurredAt)));
      }
      for (const { subject: s } of events) {
        if (s.termsChanged) await this.orders.setSubscriptionTerms(manager, order.id, await this.gateway.readSubscriptionTerms(s.objectId));
        payments.push(s.paidInvoiceId ? await this.recordPayment(manager, order, s.objectId, s.paidInvoiceId) : null);
        if (s.failedInvoiceId) await this.noteFailedPayment(manager, order, s.objectId, s.failedInvoiceId);
      }
      return payments.map((payment): PaymentEventOutcome => {
        if (status) return `applied: ${status}`;
        if (settled) return 'skipped: order settled';
        return payment === null ? 'skipped: no status change' : 'recorded: payment';
      });
    });
    events.forEach((event, i) => {
      this.countOutcome(event.type, event.payload, learned);
      this.logger.log(
        { eventId: event.id, type: event.type, orderId, learned, subscriptionState, payment: payments[i], outcome: outcomes[i] },
        'Payment event applied',
      );
    });
    return outcomes;
  }

  /**
   * Keeps the provider's word on the order's subscription. Going past due starts the order's grace
   * (from `occurredAt`, the events' time, else the provider's now); any other state ends the
   * unpaid stretch. When it ends for a paid order (canceled, or unpaid: the provider stopped
   * retrying), the buyer is told (`membership-ended`, which knows an instalment plan paid in full
   * from one that stopped): owed in this transaction, once, since the state is stored only when it
   * changes and unpaid then canceled is one end.
   */
  private async noteSubscriptionState(
    manager: EntityManager,
    order: LockedOrder,
    state: SubscriptionState,
    occurredAt: Date | null,
  ): Promise<void> {
    if (state === 'pending' || state === order.subscription_state) return;
    if (state === 'past_due') await this.pastDue.markPastDue(manager, order.id, occurredAt ?? (await this.gateway.now()));
    else if (order.subscription_state === 'past_due' || order.subscription_state === 'unpaid')
      await this.pastDue.clearPastDue(manager, order.id);
    await setSubscriptionState(manager, order.id, state, order);
    // A refund that ended access canceled it, and its own e-mail told the buyer.
    const ended = (s: string | null) => s === 'canceled' || s === 'unpaid';
    if (ended(state) && !ended(order.subscription_state) && order.paid_at && !order.access_revoked_at) {
      await owe(manager, [{ name: JOBS.membershipEnded, data: { orderId: order.id } }]);
    }
  }

  /**
   * A renewal or later instalment the provider could not charge (re-read, so a stale event about
   * an invoice paid since says nothing): the buyer is asked to update the card, once per invoice
   * (noted in payment_failures under the order's lock), however often the provider retries it.
   */
  private async noteFailedPayment(manager: EntityManager, order: OrderBilling, subscriptionId: string, invoiceId: string): Promise<void> {
    if (!order.paid_at) return;
    const invoice = await this.gateway.readInvoice(invoiceId);
    if (!invoice || invoice.paid || invoice.subscriptionId !== subscriptionId) return;
    if (invoice.first && order.kind === 'subscription') return;
    if (!(await notePaymentFailure(manager, order.id, invoice.invoiceId))) return;
    await owe(manager, [{ name: JOBS.paymentFailed, data: { orderId: order.id, invoiceId: invoice.invoiceId } }]);
  }

  /**
   * A later paid invoice of the order's subscription (a renewal or an instalment), re-read from
   * the provider under the order's lock and recorded once as a payment owing its own effects; the
   * first invoice is the order's own first payment. Resolves with the new payment's sequence.
   */
  private async recordPayment(
    manager: EntityManager,
    order: OrderBilling,
    subscriptionId: string,
    invoiceId: string,
  ): Promise<number | null> {
    const invoice = await this.gateway.readInvoice(invoiceId);
    if (!invoice || !invoice.paid || invoice.subscriptionId !== subscriptionId) return null;
    // A membership's first invoice is the order's own first payment; the first invoice of an
    // instalment schedule's subscription is already the plan's second charge.
    if (invoice.first && order.kind === 'subscription') return null;
    const row = await recordLaterPayment(manager, order.id, {
      providerPaymentId: invoice.invoiceId,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      paidAt: invoice.paidAt ?? new Date(),
    });
    return row?.sequence ?? null;
  }

  /**
   * funnel_payments_total: a charge or first payment the provider reports paid or declined, as
   * re-read (a stale event is not counted as what it claims), once per stored event; a decline by
   * the reason the event carries.
   */
  private countOutcome(type: string, payload: Record<string, unknown>, learned: OrderStatus | null): void {
    if (PAID_EVENTS.has(type) && (learned === 'succeeded' || learned === 'active')) this.metrics.paymentSucceeded();
    if (DECLINE_EVENTS.has(type) && learned !== 'succeeded' && learned !== 'active') {
      const object = (payload.data as { object?: Record<string, unknown> } | undefined)?.object;
      const error = (object?.last_payment_error ?? object?.last_setup_error) as { decline_code?: unknown; code?: unknown } | undefined;
      this.metrics.paymentFailed(error?.decline_code ?? error?.code);
    }
  }

  /** The order a stored event is about, if any (the reconciler groups unapplied events by it). */
  async orderOf(event: Pick<PaymentEventRow, 'id' | 'type' | 'payload'>): Promise<string | null> {
    const subject = this.subjectOf(event);
    return subject && this.orderFor(subject);
  }

  /** The gateway reads the stored event (which it verified on arrival) in neutral terms. */
  private subjectOf(event: Pick<PaymentEventRow, 'id' | 'type' | 'payload'>): EventSubject | null {
    return subjectOf(this.gateway.eventOf({ ...event.payload, id: event.id, type: event.type }));
  }

  /** By the provider id stored on the order; else by our order id in the object's metadata, if that order has no other object of this kind. */
  private orderFor(subject: EventSubject): Promise<string | null> {
    return this.orders.findIdFor(subject);
  }
}
