import { Inject, Injectable, Logger } from '@nestjs/common';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { PaymentEventRepository, type PaymentEventRow } from '@core/database/repositories/payment-event.repository';
import { JOBS, PaymentEventPayload } from '@contracts/jobs';
import {
  DECLINED_KINDS,
  PAYMENT_GATEWAY,
  PaymentEvent,
  PaymentEventKind,
  PaymentGateway,
  PaymentObjectKind,
  SubscriptionState,
} from '@core/payments/payment-gateway';
import type { OrderStatus } from '@core/orders/order-state';
import { readOrderStatus } from '@core/payments/order-reads';
import type { OrderIdColumn, OrderLookup } from '@core/database/repositories/order.repository';
import { OrderLifecycle, type ProviderEventFacts } from '@core/orders/order-lifecycle';
import { isFinal, orderStatusOfSubscription } from '@core/orders/order-state';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { OnJob } from '../jobs/on-job.decorator';
import { RefundEventOutcome, RefundEventsService } from './refund-events.service';

/** Events that report a payment made (a one-time charge, or any invoice of a subscription), for funnel_payments_total. */
const PAID_KINDS: ReadonlySet<PaymentEventKind> = new Set(['charge.succeeded', 'subscription.paid']);

/** Which provider object an event is about (and so which order), and how to re-read it. */
type EventSubject = OrderLookup & ProviderEventFacts;

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
  event: PaymentEvent;
  subject: EventSubject;
}

const sameObject = (a: EventSubject, b: EventSubject) => a.column === b.column && a.objectId === b.objectId;

/**
 * Applies a stored webhook event to its order. The event only says which object changed: its
 * current state is re-read from the provider, so a duplicate, a replay or an event delivered out
 * of order applies today's state, and the order's state machine refuses any backward move.
 * What the events mean for the order (newly paid and owing `order-paid`, a later payment, a
 * failed one, its subscription's state and terms) is decided by OrderLifecycle.providerEvents
 * under the row lock, so two deliveries never owe anything twice.
 */
@Injectable()
export class PaymentEventHandler {
  private readonly logger = new Logger(PaymentEventHandler.name);

  constructor(
    private readonly events: PaymentEventRepository,
    private readonly orders: OrderRepository,
    private readonly lifecycle: OrderLifecycle,
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
      if (event && parsed && subject) {
        if (group.length && !sameObject(group[0].subject, subject)) await flush();
        group.push({ id, type: event.type, event: parsed, subject });
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
    let learned: OrderStatus | null = null;
    let settled = false;
    let subscriptionState: SubscriptionState | null = null;
    // Lock, then read, then write: two events of one order take turns, so a slower read that
    // started earlier (and may be staler) never commits after a later one. A failed read is
    // thrown: the job retries with backoff, and the events stay unapplied until then. Each event
    // would re-read the object: events applied together share the one read.
    const { status, order, payments } = await this.lifecycle.providerEvents(
      subject,
      ids,
      events.map((e) => e.subject),
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
      () => subscriptionState,
      this.gateway,
    );
    const orderId = order?.id ?? null;
    const outcomes: PaymentEventOutcome[] = order
      ? payments.map((payment): PaymentEventOutcome => {
          if (status) return `applied: ${status}`;
          if (settled) return 'skipped: order settled';
          return payment === null ? 'skipped: no status change' : 'recorded: payment';
        })
      : ids.map(() => 'skipped: no order');
    events.forEach((event, i) => {
      this.countOutcome(event.event, learned);
      this.logger.log(
        { eventId: event.id, type: event.type, orderId, learned, subscriptionState, payment: payments[i], outcome: outcomes[i] },
        'Payment event applied',
      );
    });
    return outcomes;
  }

  /**
   * funnel_payments_total: a charge or first payment the provider reports paid or declined, as
   * re-read (a stale event is not counted as what it claims), once per stored event; a decline by
   * the reason the event carries, in the gateway's words.
   */
  private countOutcome(event: PaymentEvent, learned: OrderStatus | null): void {
    const paid = learned === 'succeeded' || learned === 'active';
    if (PAID_KINDS.has(event.kind) && paid) this.metrics.paymentSucceeded();
    if (DECLINED_KINDS.has(event.kind) && !paid) this.metrics.paymentFailed(event.declineReason ?? 'other');
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
