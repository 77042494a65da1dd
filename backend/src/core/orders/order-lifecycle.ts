import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { grantsAccess } from '@contracts/plans';
import { plansOf, productOf } from '@contracts/products';
import type { CancelReason } from '@contracts/cancellation';
import { CancellationFeedbackRepository } from '../database/repositories/cancellation-feedback.repository';
import { MembershipRepository, type MembershipBuyer, type MembershipRow } from '../database/repositories/membership.repository';
import { OrderLifecycleRepository } from '../database/repositories/order-lifecycle.repository';
import type {
  InstalmentStop,
  LockedOrder,
  OrderBilling,
  OrderLookup,
  ProviderIds,
  SubscriptionTermsUpdate,
} from '../database/repositories/order-rows';
import { PastDueRepository } from '../database/repositories/past-due.repository';
import { PaymentEventRepository } from '../database/repositories/payment-event.repository';
import { PaymentRepository } from '../database/repositories/payment.repository';
import {
  type DisputeRow,
  type ProviderDispute,
  type ProviderRefund,
  RefundRepository,
  type RefundRow,
  type RefundStatus,
} from '../database/repositories/refund.repository';
import type { SqlExecutor } from '../database/personal-data';
import type { FoundFirstPayment, PaymentGateway, SubscriptionState } from '../payments/payment-gateway';
import { owe, OwedJobs } from '../queue/owe';
import { advance, isPaid, type OrderStatus } from './order-state';
import { refundEndsAccess } from './refund-access';
import { isUuid } from '@contracts/ids';

/** A provider read run under the order's row lock: the status it learned, or null when it learned nothing. */
export type ProviderRead = (locked: LockedOrder) => Promise<OrderStatus | null>;

/** One stored event of a group about one provider object, as far as the lifecycle acts on it. */
export interface ProviderEventFacts {
  /** A paid subscription invoice the event reports: recorded as a payment when it is a later one. */
  paidInvoiceId: string | undefined;
  /** An invoice the event says could not be charged: the buyer is told, when it is a later one. */
  failedInvoiceId: string | undefined;
  /** A subscription update (the billing portal's cancel or resume): its terms are re-read onto the order. */
  termsChanged: boolean;
  /** When the provider says it happened, in its own time: a past-due order's grace counts from it. */
  occurredAt: Date | null;
}

/** What applying a group of provider events came to. */
export interface ProviderEventsApplied {
  /** The order's status as the read moved it (null: the read learned nothing, or there is no order). */
  status: OrderStatus | null;
  /** The order as the application left it (null: no order holds the object). */
  order: LockedOrder | null;
  /** Per event: the sequence of the later payment it recorded, else null. */
  payments: Array<number | null>;
}

/** What the lifecycle re-reads of the provider while it applies events. */
export type ProviderEventReads = Pick<PaymentGateway, 'readInvoice' | 'readSubscriptionTerms' | 'now'>;

/** What the member chose at the end of the cancellation flow, as the provider has applied it. */
export type CancellationDecision =
  | { outcome: 'canceled'; terms: SubscriptionTermsUpdate }
  | { outcome: 'paused'; months: number; pausedFrom: Date; resumesAt: Date }
  | { outcome: 'discounted'; couponId: string };

/** The member's answer to the cancellation survey (none: cancelled without answering). */
export interface CancellationSurvey {
  reason: CancelReason | null;
  detail: string | null;
}

/** A refund's status only moves forward: a late `pending` never undoes a `succeeded`. */
const RANK: Readonly<Record<RefundStatus, number>> = { requested: 0, pending: 1, succeeded: 2, failed: 2, canceled: 2 };


/**
 * The one place that decides an order's life: status moves (order-state.ts), its first and later
 * payments, failed payments, its subscription's state and terms, refunds, disputes, access and
 * the jobs each of them owes. One entry point per fact learned; each runs in a transaction of its
 * own (or the caller's, where named), holding the order's (or the payment's) row lock, and every
 * statement it runs is a repository's, given that transaction.
 */
@Injectable()
export class OrderLifecycle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrderLifecycleRepository,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly memberships: MembershipRepository,
    private readonly pastDue: PastDueRepository,
    private readonly events: PaymentEventRepository,
    private readonly feedback: CancellationFeedbackRepository,
  ) {}

  /**
   * A subscription the provider just created for the order, in one transaction under the order's
   * row lock: stores its ids, its state when the order holds none yet (the provider's first word;
   * its events, applied under the same lock, store any later one), and applies `learned`.
   * Resolves with the order's status afterwards (null: no such order).
   */
  subscriptionCreated(
    orderId: string,
    ids: Required<Pick<ProviderIds, 'subscription_id' | 'customer_id'>> & Pick<ProviderIds, 'payment_method_id'>,
    state: string | null,
    learned: OrderStatus | null,
  ): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lock(sql, orderId);
      if (!order) return null;
      await this.orders.setSubscription(sql, orderId, ids, state);
      order.subscription_id = ids.subscription_id;
      order.subscription_state ??= state;
      return learned ? this.move(sql, order, learned) : order.status;
    });
  }

  /**
   * Lock, then read, then write: takes the order's row lock, runs `read` (a provider read) while
   * holding it, and applies what it learned before the lock is released. Two readers of one
   * order take turns, so a slower read that started earlier (and may be staler) can never commit
   * after a later one. A read that throws rolls back and changes nothing. Resolves with the
   * order's status afterwards: what the read moved it to, else the status the lock read (null: no
   * such order), so that the caller need not read the row again.
   */
  providerRead(orderId: string, read: () => Promise<OrderStatus | null>): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lock(sql, orderId);
      if (!order) return null;
      return (await this.applyRead(sql, order, read)) ?? order.status;
    });
  }

  /**
   * `providerRead` under the read stamp's claim, both in one transaction: the claim (at most one
   * provider read per order per `intervalMs`, across API instances) takes the row lock, the read
   * runs under it and its answer is applied before the lock goes. A read that fails, or a
   * transaction that gets no connection, leaves no claim behind: the next poll may read at once
   * rather than answer from a row the failed read never brought up to date. Resolves with the
   * order's status after the read, or null when someone else read it within `intervalMs`.
   */
  claimedProviderRead(orderId: string, intervalMs: number, read: () => Promise<OrderStatus | null>): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.claimRead(sql, orderId, intervalMs);
      if (!order) return null;
      return (await this.applyRead(sql, order, read)) ?? order.status;
    });
  }

  /**
   * Provider events about one object (a subscription created with its first invoice…), applied
   * to its order in one transaction: the lock statement finds the order by the object and marks
   * the events (`eventIds`) applied, so they are once this commits, order or none. An order found
   * through the object's metadata learns the object's id before anything is applied: its first
   * payment is recorded under that id (an event may overtake the request that stores it). Then
   * `read` runs under the lock and its status is applied; `subscriptionState` (what `read` read of
   * the object, when it is the order's subscription) is kept; and each event's terms, later paid
   * invoice and failed invoice are re-read (`reads`) and recorded once. A failed read is thrown:
   * the transaction rolls back and the events stay unapplied.
   */
  providerEvents(
    subject: OrderLookup,
    eventIds: readonly string[],
    events: readonly ProviderEventFacts[],
    read: ProviderRead,
    subscriptionState: () => SubscriptionState | null,
    reads: ProviderEventReads,
  ): Promise<ProviderEventsApplied> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lock(sql, subject, eventIds);
      if (!order) return { status: null, order: null, payments: [] };
      if (order[subject.column] === null) {
        await this.orders.setIdIfMissing(sql, order.id, subject.column, subject.objectId);
        order[subject.column] = subject.objectId;
      }
      const status = await this.applyRead(sql, order, read);
      const state = subscriptionState();
      if (state && order.subscription_id === subject.objectId) {
        await this.subscriptionStateLearned(sql, order, state, earliest(events.map((e) => e.occurredAt)), reads);
      }
      const payments: Array<number | null> = [];
      for (const event of events) {
        if (event.termsChanged) await this.termsIn(sql, order.id, await reads.readSubscriptionTerms(subject.objectId));
        payments.push(event.paidInvoiceId ? await this.laterPayment(sql, order, subject.objectId, event.paidInvoiceId, reads) : null);
        if (event.failedInvoiceId) await this.paymentFailed(sql, order, subject.objectId, event.failedInvoiceId, reads);
      }
      return { status, order, payments };
    });
  }

  /**
   * The provider's word on a subscription's end (the account page's change), in a transaction of
   * its own; the buyer's membership moves with it (a cancellation makes it canceling).
   */
  async termsLearned(orderId: string, terms: SubscriptionTermsUpdate): Promise<void> {
    await this.dataSource.transaction((sql) => this.termsIn(sql, orderId, terms));
  }

  /**
   * The end of a member's cancellation flow, in one transaction under the order's lock: the answer
   * and its outcome stored (`cancellation_feedback`), and the outcome applied: a cancellation's
   * terms as `termsLearned` applies them, a pause's end on the order (the account shows it).
   * An answer repeated while the first was under way (a double click, two tabs) is stored once:
   * the same pause resolves with the first answer's id, a second save offer for the member with
   * null. Resolves with the stored answer's id, null when there is no such order.
   */
  cancellationAnswered(orderId: string, survey: CancellationSurvey, decision: CancellationDecision): Promise<string | null> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lock(sql, orderId);
      if (!order) return null;
      if (decision.outcome === 'paused') {
        const same = await this.feedback.pauseUntil(sql, orderId, decision.resumesAt);
        if (same) return same;
      }
      if (decision.outcome === 'discounted' && (await this.feedback.discountTaken(order.email_normalized, sql))) return null;
      const row = await this.feedback.insert(sql, {
        orderId,
        reason: survey.reason,
        detail: survey.detail,
        outcome: decision.outcome,
        ...(decision.outcome === 'paused' && { pauseMonths: decision.months, resumesAt: decision.resumesAt }),
        ...(decision.outcome === 'discounted' && { couponId: decision.couponId }),
      });
      if (decision.outcome === 'canceled') await this.termsIn(sql, orderId, decision.terms);
      if (decision.outcome === 'paused') await this.orders.setPause(sql, orderId, decision.pausedFrom, decision.resumesAt);
      return row.id;
    });
  }

  /**
   * Owes the reminder of up to `limit` pauses ending at or before `dueBy` (the provider's now plus
   * the reminder's lead), each once whoever runs the pass: claimed and owed in one transaction.
   * Resolves with how many were owed.
   */
  async pauseRemindersDue(dueBy: Date, limit: number): Promise<number> {
    return this.dataSource.transaction(async (sql) => {
      const due = await this.feedback.claimDueReminders(sql, dueBy, limit);
      await owe(
        sql,
        due.map((pause) => ({
          name: JOBS.pauseEnding,
          data: { orderId: pause.order_id, pauseId: pause.id, resumesAt: new Date(pause.resumes_at).toISOString() },
        })),
      );
      return due.length;
    });
  }

  /**
   * Applies the start or end of each pause due by `now` (the provider's clock) to its buyer's
   * access, one order per transaction, up to `limit`: the membership turns paused when the paid
   * period ends and back when the pause is over, the members area told of each change once.
   * Resolves with how many orders changed.
   */
  async pausedAccessDue(now: Date, limit: number): Promise<number> {
    let turned = 0;
    while (turned < limit) {
      const changed = await this.dataSource.transaction(async (sql) => {
        const [orderId] = await this.orders.turnPausedAccess(sql, now, 1);
        if (orderId) await this.syncMembership(sql, orderId);
        return orderId !== undefined;
      });
      if (!changed) break;
      turned += 1;
    }
    return turned;
  }

  /**
   * Refunds as the provider reported them, in one transaction; `appliedEventIds`: the stored
   * events that reported them, marked applied in it. See `refundIn`.
   */
  refundRecorded(refunds: readonly ProviderRefund[], appliedEventIds: readonly string[] = []): Promise<RefundRow[]> {
    return this.dataSource.transaction(async (sql) => {
      const rows: RefundRow[] = [];
      for (const refund of refunds) rows.push(await this.refundIn(sql, refund));
      await this.markApplied(sql, appliedEventIds);
      return rows;
    });
  }

  /**
   * Where a dispute stands, in a transaction of its own holding its payment's lock;
   * `appliedEventIds` as for refundRecorded. A new status (won and lost are final) moves the
   * order's dispute_status and owes the owner's e-mail (`dispute-changed`); a lost dispute is
   * recorded as a refund of what is left of the disputed amount (reason 'dispute'), with a
   * refund's effects, once. Null when nothing changed.
   */
  disputeChanged(dispute: ProviderDispute, appliedEventIds: readonly string[] = []): Promise<DisputeRow | null> {
    return this.dataSource.transaction(async (sql) => {
      const row = await this.disputeIn(sql, dispute);
      await this.markApplied(sql, appliedEventIds);
      return row;
    });
  }

  /**
   * Ends the access of up to `limit` orders still past due whose first failure was at or before
   * `graceStartedBefore` (the provider's now minus the grace), each in its own transaction: the
   * order is re-checked under its lock (a payment applied meanwhile keeps it), the membership
   * moves with it (its `access_ended` webhook owed there) and the buyer is owed the
   * membership-ended e-mail, once per order whoever runs the pass. Resolves with the ids of the
   * orders whose grace ended now.
   */
  async graceLapsed(graceStartedBefore: Date, limit: number): Promise<string[]> {
    const ended: string[] = [];
    for (const id of await this.pastDue.lapsedGrace(graceStartedBefore, limit)) {
      const done = await this.dataSource.transaction(async (sql) => {
        const buyer = await this.pastDue.endGrace(sql, id, graceStartedBefore);
        if (!buyer) return false;
        const owed = new OwedJobs();
        owed.add(this.membershipEndedJob(id, await this.syncMembership(sql, id, buyer, owed)));
        await owed.flush(sql);
        return true;
      });
      if (done) ended.push(id);
    }
    return ended;
  }

  /**
   * The admin's stop of an instalment plan, in one transaction holding the order's lock: marks it
   * stopped, writes the audit entry (`audit`, in the same transaction) and owes `stop-instalments`,
   * which cancels its schedule at the provider. A plan stopped already is answered as it is: a
   * double click stops and audits once.
   */
  stopInstalments(orderId: string, audit: (sql: SqlExecutor) => Promise<void>): Promise<InstalmentStop> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lockForStop(sql, orderId);
      if (!order) return { refused: 'not found' };
      if (order.instalments_stopped_at) return { stoppedAt: order.instalments_stopped_at };
      if (!order.instalments) return { refused: 'not an instalment plan' };
      if (!order.paid_at) return { refused: 'not paid' };
      if (order.access_revoked_at) return { refused: 'access revoked' };
      if (order.paid >= order.instalments) return { refused: 'paid in full' };
      const stoppedAt = await this.orders.markInstalmentsStopped(sql, orderId);
      await audit(sql);
      await owe(sql, [{ name: JOBS.stopInstalments, data: { orderId } }]);
      return { stoppedAt };
    });
  }

  /**
   * A stopped plan's later charges canceled at the provider (`stop-instalments` done, or nothing
   * was ever scheduled). A plan whose schedule had started its subscription ends by that
   * subscription's events; one stopped before (Stripe starts it only when the second charge falls
   * due) has no subscription to send any, so its charging ends here, as a canceled subscription's
   * would: a plan not paid in full loses its access (ORDER_ACCESS), the membership webhook and the
   * membership-ended e-mail are owed, once. True when it ended now.
   */
  unstartedInstalmentsStopped(orderId: string): Promise<boolean> {
    return this.dataSource.transaction(async (sql) => {
      const order = await this.orders.lock(sql, orderId);
      if (!order || !(await this.orders.endUnstartedSchedule(sql, orderId))) return false;
      const membership = await this.syncMembership(sql, orderId, order);
      if (order.paid_at && !order.access_revoked_at) await owe(sql, [this.membershipEndedJob(orderId, membership)]);
      return true;
    });
  }

  /**
   * What erasing a person owes the providers, decided in the erasure's transaction before their
   * orders are made anonymous: each customer a provider holds for them is forgotten
   * (`forget-customer`: name, e-mail and saved cards deleted there), and each instalment plan still
   * charging is stopped (marked here, so no schedule is made after, and canceled by
   * `stop-instalments`): no card of a forgotten buyer is charged again. Owed only if the erasure
   * commits.
   */
  async personErasing(sql: SqlExecutor, emailNormalized: string): Promise<void> {
    const customers = await this.orders.customersOf(sql, emailNormalized);
    const plans = await this.orders.stopPlansOf(sql, emailNormalized);
    await owe(sql, [
      ...customers.map(
        ({ provider, customer_id }) => ({ name: JOBS.forgetCustomer, data: { provider, customerId: customer_id } }) as const,
      ),
      ...plans.map((id) => ({ name: JOBS.stopInstalments, data: { orderId: id } }) as const),
    ]);
  }

  /**
   * The provider's object that took the first payment of an order whose payment 1 was recorded
   * under the order's own id (found by the order id it carries), in one transaction under the
   * order's lock: the order learns the object's id if it holds none of its kind, and the payment
   * takes it, so refunds and disputes (of our admin, or made in the provider's dashboard) find it.
   * True when the payment carries it now.
   */
  firstPaymentFound(paymentId: string, orderId: string, found: FoundFirstPayment): Promise<boolean> {
    return this.dataSource.transaction(async (sql) => {
      if (!(await this.orders.lock(sql, orderId))) return false;
      await this.orders.setIdIfMissing(sql, orderId, found.object === 'charge' ? 'payment_intent_id' : 'subscription_id', found.id);
      return this.payments.setProviderIdOfOrderIdPayment(sql, paymentId, found.id);
    });
  }

  /** Runs `read` on the locked order and applies what it learned: the new status, or null when it learned nothing. */
  private async applyRead(sql: SqlExecutor, order: LockedOrder, read: ProviderRead): Promise<OrderStatus | null> {
    const learned = await read(order);
    return learned ? this.move(sql, order, learned) : null;
  }

  /**
   * Moves the locked order to `learned` if its state machine allows it (so a webhook and a
   * verification refresh cannot both act on one old status). The first time an order is paid,
   * its first payment is recorded and the paid side effects are owed in the same transaction, so
   * they happen exactly when the payment is recorded, whichever path learned of it first.
   * Updates `order` with what it changed; resolves with its status afterwards.
   */
  private async move(sql: SqlExecutor, order: LockedOrder, learned: OrderStatus): Promise<OrderStatus> {
    const orderId = order.id;
    const next = advance(order.kind, order.status, learned);
    if (next === order.status) return next;
    const firstPaid = isPaid(next) && order.paid_at === null;
    const paidAt = await this.orders.setStatus(sql, orderId, next, firstPaid);
    // Paid again after a failed charge: a later failure starts a new grace (past-due.repository.ts).
    if (next === 'active' && (order.status === 'past_due' || order.status === 'unpaid')) await this.pastDue.clearPastDue(sql, orderId);
    order.status = next;
    order.paid_at = paidAt;
    // Owed with the membership's webhook, if access is granted now, in one statement.
    const owed = new OwedJobs();
    if (firstPaid) {
      // An instalment plan's first charge was just paid: its later charges are owed from now on.
      owed.add(
        { name: JOBS.orderPaid, data: { orderId } },
        ...(order.instalments ? [{ name: JOBS.scheduleInstalments, data: { orderId } } as const] : []),
      );
    }
    await this.syncMembership(sql, orderId, order, owed);
    await owed.flush(sql);
    return next;
  }

  /**
   * Keeps the provider's word on the order's subscription. Going past due starts the order's grace
   * (from `occurredAt`, the events' time, else the provider's now); any other state ends the
   * unpaid stretch. When it ends for a paid order (canceled, or unpaid: the provider stopped
   * retrying), the buyer is told (`membership-ended`, which knows an instalment plan paid in full
   * from one that stopped): owed in this transaction, once, since the state is stored only when it
   * changes and unpaid then canceled is one end.
   */
  private async subscriptionStateLearned(
    sql: SqlExecutor,
    order: LockedOrder,
    state: SubscriptionState,
    occurredAt: Date | null,
    reads: ProviderEventReads,
  ): Promise<void> {
    if (state === 'pending' || state === order.subscription_state) return;
    if (state === 'past_due') await this.pastDue.markPastDue(sql, order.id, occurredAt ?? (await reads.now()));
    else if (order.subscription_state === 'past_due' || order.subscription_state === 'unpaid')
      await this.pastDue.clearPastDue(sql, order.id);
    await this.orders.setSubscriptionState(sql, order.id, state);
    const membership = await this.syncMembership(sql, order.id, order);
    // A refund that ended access canceled it, and its own e-mail told the buyer.
    const ended = (s: string | null) => s === 'canceled' || s === 'unpaid';
    if (ended(state) && !ended(order.subscription_state) && order.paid_at && !order.access_revoked_at) {
      await owe(sql, [this.membershipEndedJob(order.id, membership)]);
    }
  }

  /**
   * A renewal or later instalment the provider could not charge (re-read, so a stale event about
   * an invoice paid since says nothing): the buyer is asked to update the card, once per invoice
   * (noted in payment_failures under the order's lock), however often the provider retries it. A
   * membership's first invoice refused gives up the order's membership claim.
   */
  private async paymentFailed(
    sql: SqlExecutor,
    order: OrderBilling,
    subscriptionId: string,
    invoiceId: string,
    reads: ProviderEventReads,
  ): Promise<void> {
    if (!order.paid_at && order.kind !== 'subscription') return;
    const invoice = await reads.readInvoice(invoiceId);
    if (!invoice || invoice.paid || invoice.subscriptionId !== subscriptionId) return;
    if (invoice.first && order.kind === 'subscription') {
      // A membership's first payment refused (its bank's check failed): it charged nothing, so
      // the claim it held on the buyer's one membership goes and another checkout may go ahead.
      if (!order.paid_at) await this.orders.releaseClaim(sql, order.id);
      return;
    }
    if (!order.paid_at) return;
    if (!(await this.payments.noteFailure(sql, order.id, invoice.invoiceId))) return;
    await owe(sql, [{ name: JOBS.paymentFailed, data: { orderId: order.id, invoiceId: invoice.invoiceId } }]);
  }

  /**
   * A later paid invoice of the order's subscription (a renewal or an instalment), re-read from
   * the provider under the order's lock and recorded once as a payment (the provider's id is
   * unique) owing its own effects (`payment-paid`); the first invoice is the order's own first
   * payment, and an order not paid yet records none. Resolves with the new payment's sequence.
   */
  private async laterPayment(
    sql: SqlExecutor,
    order: OrderBilling,
    subscriptionId: string,
    invoiceId: string,
    reads: ProviderEventReads,
  ): Promise<number | null> {
    const invoice = await reads.readInvoice(invoiceId);
    if (!invoice || !invoice.paid || invoice.subscriptionId !== subscriptionId) return null;
    // A membership's first invoice is the order's own first payment; the first invoice of an
    // instalment schedule's subscription is already the plan's second charge.
    if (invoice.first && order.kind === 'subscription') return null;
    const row = await this.payments.insertLater(sql, order.id, {
      providerPaymentId: invoice.invoiceId,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      paidAt: invoice.paidAt ?? new Date(),
    });
    if (!row) return null;
    await owe(sql, [{ name: JOBS.paymentPaid, data: { paymentId: row.id } }]);
    // The renewal that ends a pause restores access at once, before the pause pass would.
    await this.orders.pauseOverBy(sql, order.id, invoice.paidAt ?? new Date());
    // An instalment paid after its schedule's end was heard of (events out of order) restores access.
    await this.syncMembership(sql, order.id);
    return row.sequence;
  }

  /** Stores the subscription's terms; when they changed, the membership moves, and a new end at the period's end is told. */
  private async termsIn(sql: SqlExecutor, orderId: string, terms: SubscriptionTermsUpdate): Promise<void> {
    const before = await this.orders.lockTerms(sql, orderId);
    if (!(await this.orders.setTerms(sql, orderId, terms))) return;
    await this.syncMembership(sql, orderId);
    // Newly set to end with its period: the buyer is told when (the e-mail's key holds the date).
    if (terms.cancelAtPeriodEnd && !before?.cancel_at_period_end && terms.currentPeriodEnd && before?.status !== 'canceled') {
      await owe(sql, [{ name: JOBS.membershipCanceled, data: { orderId, endsAt: terms.currentPeriodEnd.toISOString() } }]);
    }
  }

  /**
   * Records a refund once, holding its payment's lock: by the provider's refund id, else by the
   * admin request's key it carries (the webhook of our own refund may arrive before the request
   * records the provider's answer), else as a new refund (made in the provider's dashboard, or a
   * lost dispute). Its status only moves forward. When it succeeds now, the order's refunded
   * total grows, the access decision is taken (`accessEndsFor`) and the refund's effects are owed
   * (`refund-recorded`), all in this transaction: exactly once.
   */
  private async refundIn(sql: SqlExecutor, refund: ProviderRefund): Promise<RefundRow> {
    const payment = await this.refunds.lockPayment(sql, refund.paymentId);
    if (!payment) throw new Error(`No payment ${refund.paymentId} to record a refund of`);
    const requestKey = isUuid(refund.requestKey) ? refund.requestKey : null;
    const existing = await this.refunds.findRecorded(sql, refund.providerRefundId, requestKey);
    const row = existing
      ? await this.refunds.updateRecorded(
          sql,
          existing.id,
          refund.providerRefundId,
          RANK[refund.state] > RANK[existing.status] ? refund.state : existing.status,
          refund.amountCents,
        )
      : await this.refunds.insertRecorded(sql, payment, requestKey, refund);
    if (row.status !== 'succeeded' || existing?.status === 'succeeded') return row;
    await this.orders.addRefunded(sql, payment.order_id, row.amount_cents);
    if (await this.accessEndsFor(sql, payment.id, payment.order_id, payment.amount_cents, refund.reason)) {
      await this.refunds.markEndsAccess(sql, row.id);
      row.ends_access = true;
    }
    await owe(sql, [{ name: JOBS.refundRecorded, data: { refundId: row.id } }]);
    return row;
  }

  /**
   * Ends the order's access now (orders.access_revoked_at) when money going back for the payment
   * says so (refundEndsAccess). True when it ended now (not before): the refund then cancels the
   * subscription at once, and the buyer's membership is brought up to date.
   */
  private async accessEndsFor(
    sql: SqlExecutor,
    paymentId: string,
    orderId: string,
    paymentAmountCents: number,
    reason: ProviderRefund['reason'],
  ): Promise<boolean> {
    const refunded = await this.refunds.succeededOf(sql, paymentId);
    if (!refundEndsAccess(reason, paymentAmountCents, refunded)) return false;
    if (!(await this.orders.revokeAccess(sql, orderId))) return false;
    // The buyer's membership of the product loses this order's access (another paid order may keep it).
    await this.syncMembership(sql, orderId);
    return true;
  }

  /** `disputeChanged` in the caller's transaction. */
  private async disputeIn(sql: SqlExecutor, dispute: ProviderDispute): Promise<DisputeRow | null> {
    const payment = await this.refunds.lockPayment(sql, dispute.paymentId);
    if (!payment) throw new Error(`No payment ${dispute.paymentId} to record a dispute of`);
    const existing = await this.refunds.disputeByProviderId(sql, dispute.providerDisputeId);
    if (existing && (existing.status === dispute.outcome || existing.status !== 'disputed')) return null;
    const row = await this.refunds.saveDispute(sql, payment, dispute);
    await this.orders.setDisputeStatus(sql, payment.order_id, dispute.outcome);
    await owe(sql, [{ name: JOBS.disputeChanged, data: { disputeId: row.id, status: dispute.outcome } }]);
    if (dispute.outcome === 'lost') {
      const left = payment.amount_cents - (await this.refunds.succeededOf(sql, payment.id));
      const amountCents = Math.min(dispute.amountCents, left);
      // Nothing left to take back (refunded in full before): that refund has ended the access already.
      if (amountCents > 0) {
        await this.refundIn(sql, {
          paymentId: payment.id,
          requestKey: null,
          providerRefundId: dispute.providerDisputeId,
          amountCents,
          currency: dispute.currency,
          state: 'succeeded',
          reason: 'dispute',
        });
      }
    }
    return row;
  }

  /**
   * Brings the membership of an order's buyer and product up to date with their paid orders, in
   * the caller's transaction (which changed the order). The membership row is locked before the
   * orders are read, so two orders of one buyer changing at once take turns. When access is
   * granted or ends, the membership webhook is owed in the same transaction, once per change
   * (keyed by the membership's access_changes). Resolves with the membership as it stands now
   * (null: the buyer has never had access). `buyer`: the order's address and plan when the
   * caller has just read them under the order's row lock. `owed`: where the webhook is owed when
   * the caller writes its owed jobs together (else at once).
   */
  private async syncMembership(sql: SqlExecutor, orderId: string, buyer?: MembershipBuyer, owed?: OwedJobs): Promise<MembershipRow | null> {
    const order = buyer ?? (await this.orders.buyerOf(sql, orderId));
    // An order of a plan no longer in the catalogue keeps the membership it gave as it stands.
    const product = order ? productOf(order.plan_id) : undefined;
    if (!order || !product) return null;
    const current = await this.memberships.lock(sql, order.email_normalized, product);
    const best = await this.memberships.bestAccess(sql, order.email_normalized, plansOf(product));
    if (!best) return current;

    // Access held by a test order and now by a live one is granted anew: the members area hears
    // of no test order unless MEMBERSHIP_WEBHOOK_TEST_ORDERS is on (MembershipWebhookHandler).
    const turnedLive = grantsAccess(best.access) && grantsAccess(current?.status) && best.livemode && current?.order_livemode === false;
    const granted = (grantsAccess(best.access) && !grantsAccess(current?.status)) || turnedLive;
    const ended = !grantsAccess(best.access) && grantsAccess(current?.status);
    if (!current) {
      if (!granted) return null;
      // A concurrent first order of the same buyer and product inserts one row; the other waits and updates it.
      const inserted = await this.memberships.insert(sql, order.email_normalized, product, best.access, best.id);
      if (!inserted) return this.syncMembership(sql, orderId, order, owed);
      await this.oweWebhook(sql, inserted, 'membership.access_granted', owed);
      return inserted;
    }
    if (current.status === best.access && current.order_id === best.id) return current;
    const updated = await this.memberships.update(sql, current.id, best.access, best.id, granted, ended);
    if (granted) await this.oweWebhook(sql, updated, 'membership.access_granted', owed);
    if (ended) await this.oweWebhook(sql, updated, 'membership.access_ended', owed);
    return updated;
  }

  /**
   * The buyer's membership-ended e-mail about the order, owed once per ending: keyed by the
   * membership's access changes as the ending left them (`membership` as syncMembership resolved),
   * so the same ending owed twice (unpaid, then canceled) is one e-mail, and a second ending of the
   * order after a payment restored it is another.
   */
  private membershipEndedJob(orderId: string, membership: MembershipRow | null) {
    return { name: JOBS.membershipEnded, data: { orderId, sequence: membership?.access_changes ?? 0 } } as const;
  }

  /** Owes the webhook of an access change now, or through `owed` when the caller writes its owed jobs together. */
  private async oweWebhook(
    sql: SqlExecutor,
    row: MembershipRow,
    event: 'membership.access_granted' | 'membership.access_ended',
    owed: OwedJobs | undefined,
  ): Promise<void> {
    const job = { name: JOBS.membershipWebhook, data: { membershipId: row.id, change: row.access_changes, event } } as const;
    if (owed) owed.add(job);
    else await owe(sql, [job]);
  }

  private async markApplied(sql: SqlExecutor, eventIds: readonly string[]): Promise<void> {
    if (eventIds.length) await this.events.markApplied(eventIds, sql);
  }
}

/** The earliest of the times given, if any. */
function earliest(times: Array<Date | null>): Date | null {
  return times.reduce<Date | null>((first, at) => (at && (!first || at < first) ? at : first), null);
}
