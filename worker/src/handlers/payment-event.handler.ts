import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { JOBS, PaymentEventPayload } from '@contracts/jobs';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { fromPaymentIntentStatus, fromSetupIntentStatus, fromSubscriptionStatus, OrderStatus } from '@core/payments/order-state';
import { applyOrderStatus } from '@core/database/repositories/order.repository';
import { OnJob } from '../jobs/on-job.decorator';

type IdColumn = 'payment_intent_id' | 'setup_intent_id' | 'subscription_id';

/** Which provider object an event is about, and how to re-read it. */
interface EventSubject {
  column: IdColumn;
  objectId: string;
  orderId: string | undefined;
}

export type PaymentEventOutcome =
  | `applied: ${OrderStatus}`
  | 'already applied'
  | 'skipped: event not found'
  | 'skipped: not an order event'
  | 'skipped: no order'
  | 'skipped: no status change';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const orderIdOf = (metadata: unknown): string | undefined => {
  const id = str((metadata as Record<string, unknown> | null | undefined)?.order_id);
  return id && UUID.test(id) ? id : undefined;
};

/** The object an event names: intents and subscriptions directly, invoices through their subscription. */
export function subjectOf(type: string, object: Record<string, unknown>): EventSubject | null {
  const id = str(object.id);
  if (type.startsWith('payment_intent.') && id) return { column: 'payment_intent_id', objectId: id, orderId: orderIdOf(object.metadata) };
  if (type.startsWith('setup_intent.') && id) return { column: 'setup_intent_id', objectId: id, orderId: orderIdOf(object.metadata) };
  if (type.startsWith('customer.subscription.') && id)
    return { column: 'subscription_id', objectId: id, orderId: orderIdOf(object.metadata) };
  if (type === 'invoice.paid' || type === 'invoice.payment_failed') {
    const subscription = object.subscription;
    const subscriptionId = typeof subscription === 'string' ? subscription : str((subscription as { id?: unknown } | null)?.id);
    const details = object.subscription_details as { metadata?: unknown } | null | undefined;
    if (subscriptionId) return { column: 'subscription_id', objectId: subscriptionId, orderId: orderIdOf(details?.metadata) };
  }
  return null;
}

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
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @OnJob(JOBS.paymentEvent)
  async apply({ eventId }: PaymentEventPayload): Promise<PaymentEventOutcome> {
    const event = await this.events.find(eventId);
    if (!event) return 'skipped: event not found';
    if (event.applied_at) return 'already applied';
    const subject = subjectOf(event.type, event.payload.data?.object ?? {});
    if (!subject) return this.markApplied(eventId, 'skipped: not an order event');
    const orderId = await this.orderFor(subject);
    if (!orderId) return this.markApplied(eventId, 'skipped: no order');

    // A failed read is thrown: the job retries with backoff, and the event stays unapplied until then.
    const learned = await this.read(subject);
    const outcome = await this.dataSource.transaction(async (manager): Promise<PaymentEventOutcome> => {
      // An order found through its metadata learns the object's id here, before it can be paid: a
      // subscription's first events may arrive before confirm-subscription has stored its id.
      await this.orders.setIdIfMissing(manager, orderId, subject.column, subject.objectId);
      const status = learned ? await applyOrderStatus(manager, orderId, learned) : null;
      await this.events.markApplied(eventId, manager);
      return status ? `applied: ${status}` : 'skipped: no status change';
    });
    this.logger.log({ eventId, type: event.type, orderId, learned, outcome }, 'Payment event applied');
    return outcome;
  }

  /** By the provider id stored on the order; else by our order id in the object's metadata, if that order has no other object of this kind. */
  private async orderFor(subject: EventSubject): Promise<string | null> {
    const byId = await this.orders.findIdBy(subject.column, subject.objectId);
    if (byId) return byId;
    if (!subject.orderId) return null;
    return this.orders.findIdWithout(subject.orderId, subject.column);
  }

  private async read(subject: EventSubject): Promise<OrderStatus | null> {
    switch (subject.column) {
      case 'payment_intent_id': {
        const state = await this.gateway.retrievePaymentIntent(subject.objectId);
        return fromPaymentIntentStatus(state.status, state.hasError);
      }
      case 'setup_intent_id': {
        const state = await this.gateway.retrieveSetupIntent(subject.objectId);
        return fromSetupIntentStatus(state.status, state.hasError);
      }
      case 'subscription_id':
        return fromSubscriptionStatus((await this.gateway.retrieveSubscription(subject.objectId)).status);
    }
  }

  private async markApplied<T extends PaymentEventOutcome>(eventId: string, outcome: T): Promise<T> {
    await this.events.markApplied(eventId);
    return outcome;
  }
}
