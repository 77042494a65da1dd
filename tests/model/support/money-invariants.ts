import { grantsAccess, isPlanId, planOf, type MembershipStatus } from '@contracts/plans';
import { productOf } from '@contracts/products';
import { exactlyOnceProblems, type DoorAttempt } from '../../fakes/exactly-once';
import type { MoneyWorld } from './money-world';

interface OrderFact {
  id: string;
  plan_id: string;
  kind: 'one-time' | 'subscription';
  status: string;
  email_normalized: string;
  paid_at: Date | null;
  instalments: number | null;
  subscription_state: string | null;
  access_revoked_at: Date | null;
  instalments_stopped_at: Date | null;
  grace_ended_at: Date | null;
  livemode: boolean;
  paused_from: Date | null;
  paused_until: Date | null;
  access_paused: boolean;
}
interface PaymentFact {
  id: string;
  order_id: string;
  provider_payment_id: string;
  sequence: number;
  amount_cents: number;
  paid_at: Date;
}
interface RefundFact {
  id: string;
  payment_id: string;
  amount_cents: number;
  status: string;
  reason: string;
}
interface MembershipFact {
  id: string;
  email_normalized: string;
  product: string;
  status: MembershipStatus;
}

/** Whether an order grants access now, from its facts alone; 'either' where the rules allow both (a card being retried). */
type Access = 'yes' | 'no' | 'either';

/** Cards whose later charges go through: an instalment plan bought with one is charged exactly N times. */
const CARDS_THAT_KEEP_PAYING = new Set(['pays', 'authenticatesOnce']);
/** The longest a billing month can be, in sandbox days. */
const LONGEST_MONTH_DAYS = 31;
const SHORTEST_MONTH_DAYS = 28;

/** A Message-ID `<kind.subject@domain>` as its ledger key `kind.subject`. */
const keyOf = (messageId: string) => messageId.replace(/^<|@[^@]*>$/g, '');

/**
 * Everything that must hold after any sequence of purchases, clock moves, refunds, account
 * changes, replayed events and restarts, read from Postgres and from what the fakes received at
 * their doors. Resolves with each problem found, in words (none: all hold).
 */
export async function moneyProblems(world: MoneyWorld): Promise<string[]> {
  const db = world.stack.db;
  const [orders, payments, refunds, memberships]: [OrderFact[], PaymentFact[], RefundFact[], MembershipFact[]] = await Promise.all([
    db.query(
      `SELECT id, plan_id, kind, status, email_normalized, paid_at, instalments, subscription_state, access_revoked_at, instalments_stopped_at, grace_ended_at, livemode,
              paused_from, paused_until, access_paused FROM orders`,
    ),
    db.query(`SELECT id, order_id, provider_payment_id, sequence, amount_cents, paid_at FROM payments ORDER BY order_id, sequence`),
    db.query(`SELECT id, payment_id, amount_cents, status, reason FROM refunds`),
    db.query(`SELECT id, email_normalized, product, status FROM memberships`),
  ]);
  const problems: string[] = [];
  const paymentsOf = (orderId: string) => payments.filter((p) => p.order_id === orderId);

  for (const order of orders) {
    if (!isPlanId(order.plan_id)) continue;
    const plan = planOf(order.plan_id);
    const paid = paymentsOf(order.id);
    const total = paid.reduce((sum, p) => sum + p.amount_cents, 0);
    const facts = world.orders.get(order.id);
    const days = facts ? world.day - facts.boughtOnDay : 0;
    // Never charged more than the plan's total (a membership: one charge per month begun).
    const most = plan.kind === 'subscription' ? Math.floor(days / SHORTEST_MONTH_DAYS) + 1 : (plan.instalments ?? 1);
    if (paid.length > most || total > most * plan.amount * 100) {
      problems.push(
        `order ${order.id} (${plan.id}) charged ${paid.length} times, ${total} cents: at most ${most} × ${plan.amount * 100} by day ${days}`,
      );
    }
    // An instalment plan is charged exactly N times, unless its access was revoked or it was stopped.
    if (
      plan.instalments &&
      order.paid_at &&
      !order.access_revoked_at &&
      !order.instalments_stopped_at &&
      facts &&
      CARDS_THAT_KEEP_PAYING.has(facts.card) &&
      days >= (plan.instalments - 1) * LONGEST_MONTH_DAYS + 1 &&
      paid.length !== plan.instalments
    ) {
      problems.push(`order ${order.id} (${plan.id}) paid ${paid.length} of ${plan.instalments} instalments by day ${days}`);
    }
    // Nothing is charged after a full refund or a lost dispute revoked access, or the admin stopped the plan.
    if (order.access_revoked_at || order.instalments_stopped_at) {
      const atRevocation = world.revokedAt.get(order.id);
      if (atRevocation === undefined) world.revokedAt.set(order.id, paid.length);
      else if (paid.length > atRevocation) {
        problems.push(
          `order ${order.id} (${plan.id}) charged ${paid.length - atRevocation} more time(s) after its access was revoked or its plan stopped`,
        );
      }
    }
    if (order.paid_at && paid.length === 0) problems.push(`order ${order.id} is paid but has no payment`);
    // Nothing is charged while a member's pause holds (from the end of the paid period until it ends).
    const { paused_from: from, paused_until: until } = order;
    for (const payment of from && until ? paid.filter((p) => p.paid_at > from && p.paid_at < until) : []) {
      problems.push(`order ${order.id} (${plan.id}) charged payment ${payment.sequence} on ${payment.paid_at.toISOString()} during its pause`);
    }
  }

  for (const payment of payments) {
    if (payment.provider_payment_id === payment.order_id || !/^(pi|in|sub)_/.test(payment.provider_payment_id)) {
      problems.push(`payment ${payment.id} carries no provider id: "${payment.provider_payment_id}"`);
    }
    const refunded = refunds
      .filter((r) => r.payment_id === payment.id && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount_cents, 0);
    if (refunded > payment.amount_cents) problems.push(`payment ${payment.id} refunded ${refunded} of ${payment.amount_cents} cents`);
    // Money back ends the access: a payment refunded in full, or a lost dispute (recorded as a refund of reason 'dispute').
    const back = refunds.filter((r) => r.payment_id === payment.id && r.status === 'succeeded');
    const lostDispute = back.some((r) => r.reason === 'dispute');
    const refundedInFull = back.reduce((sum, r) => sum + r.amount_cents, 0) >= payment.amount_cents;
    const order = orders.find((o) => o.id === payment.order_id);
    if ((lostDispute || refundedInFull) && order && !order.access_revoked_at) {
      problems.push(
        `order ${order.id}: payment ${payment.id} ${lostDispute ? 'lost a dispute' : 'was refunded in full'} but the order's access was not revoked`,
      );
    }
  }

  problems.push(...accessProblems(world, orders, paymentsOf, memberships, await world.providerNow()));
  problems.push(...effectProblems(world, orders, payments, refunds));
  problems.push(...(await drainProblems(world)));
  return problems;
}

/**
 * A past-due card keeps access for the grace only, ended by the reconciler's pass (grace_ended_at),
 * which the model runs now and then: until that pass, open or closed are both right.
 */
function orderAccess(order: OrderFact, paidCount: number, now: Date): Access {
  if (!order.paid_at || order.access_revoked_at) return 'no';
  const pastDue =
    order.kind === 'subscription' ? order.status === 'past_due' : Boolean(order.instalments) && order.subscription_state === 'past_due';
  if (pastDue) return order.grace_ended_at ? 'no' : 'either';
  if (order.kind === 'subscription' && order.status === 'active') return pausedAccess(order, now) ?? 'yes';
  if (order.kind === 'subscription') return 'no';
  if (order.instalments && order.subscription_state === 'unpaid') return 'no';
  if (order.instalments && order.subscription_state === 'canceled' && paidCount < order.instalments) return 'no';
  return 'yes';
}

/**
 * A running subscription's access while a pause holds (null: no pause holds or is pending): closed
 * once the pause pass has seen it begin; from its start, or from its end until that pass or the
 * renewal, open or closed are both right.
 */
function pausedAccess(order: OrderFact, now: Date): Access | null {
  if (!order.paused_from || !order.paused_until || now < order.paused_from) return null;
  if (now < order.paused_until) return order.access_paused ? 'no' : 'either';
  return order.access_paused ? 'either' : null;
}

/**
 * Access in Postgres is what the buyer's orders say, and the members area (applying each notice
 * only when it is newer than the last it applied) agrees with Postgres.
 */
function accessProblems(
  world: MoneyWorld,
  orders: OrderFact[],
  paymentsOf: (orderId: string) => PaymentFact[],
  memberships: MembershipFact[],
  now: Date,
): string[] {
  const problems: string[] = [];
  const expected = new Map<string, Access>();
  for (const order of orders) {
    if (!isPlanId(order.plan_id)) continue;
    const key = `${order.email_normalized} ${productOf(order.plan_id)}`;
    const access = orderAccess(order, paymentsOf(order.id).length, now);
    const before = expected.get(key) ?? 'no';
    expected.set(key, before === 'yes' || access === 'yes' ? 'yes' : before === 'either' || access === 'either' ? 'either' : 'no');
  }
  for (const [key, access] of expected) {
    const [email, product] = key.split(' ');
    const membership = memberships.find((m) => m.email_normalized === email && m.product === product);
    const has = membership !== undefined && grantsAccess(membership.status);
    if ((access === 'yes' && !has) || (access === 'no' && has)) {
      problems.push(`membership of ${key}: access ${has ? 'open' : 'closed'} (${membership?.status ?? 'none'}), its orders say ${access}`);
    }
    if (membership && world.receiverAccess(membership.id) !== has) {
      problems.push(`members area: ${key} ${has ? 'closed' : 'open'} while Postgres says ${membership.status}`);
    }
  }
  return problems;
}

/**
 * Each receipt, sale, purchase event, refund e-mail and reversal reached its door exactly once.
 * A door may see a repeat only of an effect a killed worker left claimed and unrecorded, at most
 * one per such effect of its kinds: the answer may have reached the worker just before it died,
 * and the new worker sends it again under the same key or Message-ID.
 */
function effectProblems(world: MoneyWorld, orders: OrderFact[], payments: PaymentFact[], refunds: RefundFact[]): string[] {
  const paidOrders = orders.filter((o) => o.paid_at);
  const succeeded = refunds.filter((r) => r.status === 'succeeded');
  const mails = world.smtp.deliveriesAtDoor().map((a) => ({ ...a, identity: keyOf(a.identity) }));
  const ofKind = (kind: string) => mails.filter((a) => a.identity.startsWith(`${kind}.`));
  const unrecorded = (kinds: (kind: string) => boolean) => world.unrecordedAtKills.filter(kinds).length;
  const checks: Array<[string, DoorAttempt[], string[], number]> = [
    [
      'receipts',
      ofKind('receipt-email'),
      [...paidOrders.map((o) => `receipt-email.${o.id}`), ...payments.filter((p) => p.sequence > 1).map((p) => `receipt-email.${p.id}`)],
      unrecorded((kind) => kind === 'receipt-email'),
    ],
    [
      'refund e-mails',
      ofKind('refund-email'),
      succeeded.filter((r) => r.reason === 'refund').map((r) => `refund-email.${r.id}`),
      unrecorded((kind) => kind === 'refund-email'),
    ],
  ];
  const problems = checks.flatMap(([what, attempts, expected, allowed]) =>
    exactlyOnceProblems(attempts, expected, allowed).map((p) => `${what}: ${p}`),
  );
  // Every e-mail of any kind (failed payments, endings, sign-in links) went out once.
  problems.push(
    ...exactlyOnceProblems(
      mails,
      [...new Set(mails.map((m) => m.identity))],
      unrecorded((kind) => kind.endsWith('-email')),
    ).map((p) => `e-mails: ${p}`),
  );
  const doors: Array<[string, DoorAttempt[], (kind: string) => boolean]> = [
    ['affiliate sales', world.affiliate.salesAtDoor(), (kind) => kind === 'affiliate-sale'],
    ['affiliate refunds', world.affiliate.refundsAtDoor(), (kind) => kind === 'affiliate-refund'],
    ['Meta events', world.meta.eventsAtDoor(), (kind) => kind.startsWith('meta-')],
    ['GA4 events', world.ga4.effectsAtDoor(), (kind) => kind.startsWith('ga4-')],
    ['membership notices', world.members.deliveriesAtDoor(), (kind) => kind === 'membership-webhook'],
  ];
  for (const [what, attempts, kinds] of doors) {
    problems.push(
      ...exactlyOnceProblems(attempts, [...new Set(attempts.map((a) => a.identity))], unrecorded(kinds)).map((p) => `${what}: ${p}`),
    );
  }
  const sales = new Set(
    world.affiliate
      .salesAtDoor()
      .filter((a) => a.toldDone)
      .map((a) => a.identity),
  ).size;
  if (sales !== payments.length) problems.push(`affiliate sales: ${sales} for ${payments.length} payments of live referred orders`);
  return problems;
}

/** Every owed job ended done (none gave up) and no side effect is left claimed but unrecorded. */
async function drainProblems(world: MoneyWorld): Promise<string[]> {
  const [{ failed, open, claimed }]: Array<{ failed: number; open: number; claimed: number }> = await world.stack.db.query(
    `SELECT (SELECT count(*)::int FROM outbox WHERE failed_at IS NOT NULL) AS failed,
            (SELECT count(*)::int FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL) AS open,
            (SELECT count(*)::int FROM side_effects WHERE status = 'claimed') AS claimed`,
  );
  const problems: string[] = [];
  if (failed) problems.push(`${failed} owed job(s) gave up`);
  if (open) problems.push(`${open} owed job(s) still open`);
  if (claimed) problems.push(`${claimed} side effect(s) claimed and never recorded`);
  return problems;
}
