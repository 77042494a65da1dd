import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import type { SandboxWebhookEvent } from '@contracts/jobs';
import { PaymentEventRepository } from '../../../database/repositories/payment-event.repository';
import {
  type NewSandboxObject,
  type SandboxBillingChange,
  type SandboxRetentionChange,
  SandboxObjectRepository,
  type SandboxObjectRow,
} from '../../../database/repositories/sandbox-object.repository';
import { disputeObject, DISPUTED_CARD_OUTCOME, newDispute, paidChargeOf } from './sandbox-disputes';
import { NOTHING_TO_APPLY, stripeEvent } from './sandbox-events';

export type SandboxObjectKind = SandboxObjectRow['object'];

/** Connections of the sandbox's own pool, in each process that uses it (the API and the worker). */
const SANDBOX_POOL_SIZE = 10;

/**
 * The sandbox's Postgres records (Stripe's stand-in). Every state change is written together with
 * the Stripe-shaped events it causes, stored in `payment_events` with the `payment-event` job that
 * applies each owed, in the same transaction: what the webhook endpoint does with a signed
 * delivery, without the delivery. The sandbox is our own code in our own database, so a signed
 * HTTP round trip back into the API (an outbox row, a job, a request, a transaction, per event)
 * proved nothing the Stripe webhook tests do not. The `sandbox-webhook` job that made that round
 * trip keeps its handler for rows an older API owed.
 */
@Injectable()
export class SandboxStore implements OnApplicationShutdown {
  private own: Promise<DataSource> | null = null;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly objects: SandboxObjectRepository,
    private readonly events: PaymentEventRepository,
  ) {}

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return (await this.connections()).transaction(work);
  }

  /**
   * Reads outside any transaction, each statement on its own: no BEGIN and COMMIT round trips.
   * Reads that take no lock gain nothing from a transaction: at read committed, each statement
   * of one sees its own snapshot anyway.
   */
  async read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return work((await this.connections()).manager);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const own = this.own;
    this.own = null;
    await own?.then((source) => source.destroy()).catch(() => undefined);
  }

  /**
   * The sandbox's own pool (SANDBOX_POOL_SIZE connections of this process), opened at its first
   * use, so never with Stripe configured. Stripe's stand-in must not take its connections from
   * the pool of its callers: a verification poll or a webhook job reads the provider while it
   * holds its order's row lock and connection, and under a rush every connection of a shared pool
   * was held by such a caller waiting for a second one, until all of them timed out together.
   */
  private connections(): Promise<DataSource> {
    if (this.closed) return Promise.reject(new Error('The payment sandbox has shut down'));
    if (!this.own) {
      const options = this.dataSource.options as PostgresDataSourceOptions;
      const extra = { ...(options.extra as Record<string, unknown>), max: SANDBOX_POOL_SIZE };
      const opening = new DataSource({ ...options, extra }).initialize();
      // A failed opening (Postgres away) is tried again by the next caller, not remembered.
      opening.catch(() => {
        if (this.own === opening) this.own = null;
      });
      this.own = opening;
    }
    return this.own;
  }

  /** Creates the object unless one exists under its idempotency key; resolves with whichever is stored. */
  async insertOnce(
    manager: EntityManager,
    row: NewSandboxObject,
    events: (stored: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    const [created] = await this.objects.insertOnce(manager, row);
    if (!created) return (await this.objects.findByIdempotencyKey(manager, row.idempotencyKey))[0];
    await this.emit(manager, events(created));
    return created;
  }

  async find(manager: EntityManager, object: SandboxObjectKind, id: string, lock = false): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.find(manager, object, id, lock);
    return row ?? null;
  }

  /** The object of this kind an order holds (an order has at most one subscription). */
  async findForOrder(manager: EntityManager, object: SandboxObjectKind, orderId: string, lock = false): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.findForOrder(manager, object, orderId, lock);
    return row ?? null;
  }

  refundsOf(manager: EntityManager, refundedId: string): Promise<SandboxObjectRow[]> {
    return this.objects.refundsOf(manager, refundedId);
  }

  async findByIdempotencyKey(manager: EntityManager, idempotencyKey: string): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.findByIdempotencyKey(manager, idempotencyKey);
    return row ?? null;
  }

  advanceClock(manager: EntityManager, seconds: number): Promise<Date> {
    return this.objects.advanceClock(manager, seconds);
  }

  now(): Promise<Date> {
    return this.read((manager) => this.objects.clockNow(manager));
  }

  billingSubscriptions(manager: EntityManager): Promise<SandboxObjectRow[]> {
    return this.objects.billingSubscriptions(manager);
  }

  countUnpaidInvoices(manager: EntityManager, orderId: string): Promise<number> {
    return this.objects.countUnpaidInvoices(manager, orderId);
  }

  async openInvoice(manager: EntityManager, orderId: string): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.openInvoices(manager, orderId);
    return row ?? null;
  }

  /** Changes a subscription's or an invoice's billing state with the events that change causes, in the caller's transaction. */
  async updateBilling(
    manager: EntityManager,
    row: SandboxObjectRow,
    change: SandboxBillingChange,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    await this.objects.updateBilling(manager, row.id, change);
    const updated = { ...row, ...change };
    await this.emit(manager, events(updated));
    return updated;
  }

  countForOrder(manager: EntityManager, object: SandboxObjectKind, orderId: string): Promise<number> {
    return this.objects.countForOrder(manager, object, orderId);
  }

  async findByPaymentMethod(manager: EntityManager, paymentMethodId: string): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.findByPaymentMethod(manager, paymentMethodId);
    return row ?? null;
  }

  findByCustomer(manager: EntityManager, customerId: string, lock = false): Promise<SandboxObjectRow[]> {
    return this.objects.findByCustomer(manager, customerId, lock);
  }

  async findBySecret(
    manager: EntityManager,
    object: SandboxObjectKind,
    clientSecret: string,
    lock = false,
  ): Promise<SandboxObjectRow | null> {
    const [row] = await this.objects.findBySecret(manager, object, clientSecret, lock);
    return row ?? null;
  }

  /** Changes an object and records the events that change causes, in the caller's transaction. */
  async update(
    manager: EntityManager,
    row: SandboxObjectRow,
    change: Pick<SandboxObjectRow, 'status' | 'payment_method_id' | 'card' | 'last_error'>,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    await this.objects.update(manager, row.id, change);
    const updated = { ...row, ...change };
    await this.emit(manager, events(updated));
    return updated;
  }

  /** Sets a subscription's pause and one-off renewal discount and records the events it causes, in the caller's transaction. */
  async setRetention(
    manager: EntityManager,
    row: SandboxObjectRow,
    change: SandboxRetentionChange,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    await this.objects.setRetention(manager, row.id, change);
    const updated = { ...row, ...change };
    await this.emit(manager, events(updated));
    return updated;
  }

  /** Sets or clears a subscription's cancellation at its period's end and records the events it causes, in the caller's transaction. */
  async setCancelAtPeriodEnd(
    manager: EntityManager,
    row: SandboxObjectRow,
    cancel: boolean,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    await this.objects.setCancelAtPeriodEnd(manager, row.id, cancel);
    const updated = { ...row, cancel_at_period_end: cancel };
    await this.emit(manager, events(updated));
    return updated;
  }

  /**
   * Stores the events (each once, under its id) and owes, in the caller's transaction and the
   * same statement, one `payment-event` job that applies those with something to apply, in order:
   * they were caused by one change of one order's objects, and each application re-reads the
   * object anyway. An intent's `created` event is stored applied, owing nothing (`NOTHING_TO_APPLY`).
   * The disputes the bank files against payments among them come last (see `disputesFiled`).
   */
  private async emit(manager: EntityManager, changed: SandboxWebhookEvent[]): Promise<void> {
    const events = [...changed, ...(await this.disputesFiled(manager, changed))];
    await this.events.insertManyOnceOwing(
      manager,
      events.map((event) => ({ id: event.id, type: event.type, payload: event, applied: NOTHING_TO_APPLY.has(event.type) })),
    );
  }

  /**
   * Stripe's test card 4000 0000 0000 0259 in every path that charges a card (checkout, one-click,
   * a subscription's first invoice, the clock's renewals and instalments): each payment among
   * `events` made with it is disputed at once (Stripe files the test dispute within moments), once
   * per payment. Its `charge.dispute.created` is stored after the payment's own events, in the
   * same transaction and job, so the worker has recorded the payment when it applies the dispute.
   */
  private async disputesFiled(manager: EntityManager, events: SandboxWebhookEvent[]): Promise<SandboxWebhookEvent[]> {
    const filed: SandboxWebhookEvent[] = [];
    for (const paid of events.map(paidChargeOf)) {
      if (!paid) continue;
      const cardHolder = await this.find(manager, paid.cardHolder.object, paid.cardHolder.id);
      if (cardHolder?.card?.outcome !== DISPUTED_CARD_OUTCOME) continue;
      const [dispute] = await this.objects.insertOnce(manager, newDispute(paid, cardHolder));
      if (dispute) filed.push(stripeEvent('charge.dispute.created', disputeObject(dispute, null), paid.at));
    }
    return filed;
  }
}
