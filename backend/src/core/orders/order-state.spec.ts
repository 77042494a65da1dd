import type { PaymentKind } from '@contracts/plans';
import {
  advance,
  canTransition,
  isFinal,
  isPaid,
  isSettled,
  orderStatusOfCardSetup,
  orderStatusOfCharge,
  orderStatusOfSubscription,
  OrderStatus,
} from './order-state';
import { ORDER_STATUSES } from '../database/repositories/order-rows';

describe('order state machine', () => {
  it('walks a one-time payment forward: created → requires_action → processing → succeeded', () => {
    let status: OrderStatus = 'created';
    for (const next of ['requires_action', 'processing', 'succeeded'] as const) status = advance('one-time', status, next);
    expect(status).toBe('succeeded');
  });

  it('never leaves succeeded or canceled, whatever arrives late', () => {
    for (const to of ORDER_STATUSES) {
      expect(advance('one-time', 'succeeded', to)).toBe('succeeded');
      expect(advance('one-time', 'canceled', to)).toBe('canceled');
      expect(advance('subscription', 'canceled', to)).toBe('canceled');
    }
  });

  it('never moves a one-time payment backwards', () => {
    expect(canTransition('one-time', 'processing', 'requires_action')).toBe(false);
    expect(canTransition('one-time', 'processing', 'created')).toBe(false);
    expect(canTransition('one-time', 'requires_action', 'created')).toBe(false);
    expect(advance('one-time', 'processing', 'requires_action')).toBe('processing');
  });

  it('lets a declined payment be retried on the same intent', () => {
    expect(advance('one-time', 'failed', 'succeeded')).toBe('succeeded');
    expect(advance('one-time', 'failed', 'requires_action')).toBe('requires_action');
  });

  it('follows dunning: active → past_due → unpaid → active (a later payment) → unpaid → canceled', () => {
    let status: OrderStatus = 'active';
    for (const next of ['past_due', 'unpaid', 'active', 'unpaid', 'canceled'] as const) {
      expect(canTransition('subscription', status, next)).toBe(true);
      status = advance('subscription', status, next);
    }
    expect(status).toBe('canceled');
  });

  it('follows a subscription: incomplete → active → past_due → active → canceled', () => {
    let status: OrderStatus = 'created';
    for (const next of ['incomplete', 'active', 'past_due', 'active', 'canceled'] as const) {
      expect(canTransition('subscription', status, next)).toBe(true);
      status = advance('subscription', status, next);
    }
    expect(status).toBe('canceled');
  });

  it('never takes an active subscription back to incomplete or its setup states', () => {
    for (const to of ['incomplete', 'created', 'requires_action', 'failed'] as const) {
      expect(advance('subscription', 'active', to)).toBe('active');
    }
  });

  it('refuses statuses of the other payment kind', () => {
    expect(canTransition('one-time', 'created', 'active')).toBe(false);
    expect(canTransition('subscription', 'created', 'succeeded')).toBe(false);
  });

  it('learns nothing from a pending charge, setup or subscription, a paused one, or a card setup that succeeded', () => {
    expect(orderStatusOfCharge('pending')).toBeNull();
    expect(orderStatusOfCharge('failed')).toBe('failed');
    expect(orderStatusOfCharge('succeeded')).toBe('succeeded');
    expect(orderStatusOfCardSetup('succeeded')).toBeNull();
    expect(orderStatusOfCardSetup('processing')).toBeNull();
    expect(orderStatusOfCardSetup('requires_action')).toBe('requires_action');
    expect(orderStatusOfCardSetup('failed')).toBe('failed');
    expect(orderStatusOfSubscription('paused')).toBeNull();
    expect(orderStatusOfSubscription('pending')).toBeNull();
    expect(orderStatusOfSubscription('past_due')).toBe('past_due');
  });
});

/**
 * The expected life cycle, written out here by hand rather than read from order-state.ts: a row
 * per current status, the statuses it may move to. A status absent from a row is refused.
 */
const STATUSES = [
  'created',
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'canceled',
  'incomplete',
  'active',
  'past_due',
  'unpaid',
] as const;

type Status = (typeof STATUSES)[number];

const EXPECTED_MOVES: Record<PaymentKind, Record<Status, readonly Status[]>> = {
  'one-time': {
    created: ['requires_action', 'processing', 'succeeded', 'failed', 'canceled'],
    requires_action: ['processing', 'succeeded', 'failed', 'canceled'],
    processing: ['succeeded', 'failed', 'canceled'],
    succeeded: [],
    // A declined card: the buyer retries the same intent with another card.
    failed: ['requires_action', 'processing', 'succeeded', 'canceled'],
    canceled: [],
    // Subscription words: a one-time order never takes them, and never leaves them.
    incomplete: [],
    active: [],
    past_due: [],
    unpaid: [],
  },
  subscription: {
    created: ['requires_action', 'failed', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
    requires_action: ['failed', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
    // A one-time payment's words: a subscription order never takes them, and never leaves them.
    processing: [],
    succeeded: [],
    failed: ['requires_action', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
    canceled: [],
    // Once the subscription exists, the card setup's states (and incomplete) are behind it.
    incomplete: ['active', 'past_due', 'unpaid', 'canceled'],
    active: ['past_due', 'unpaid', 'canceled'],
    past_due: ['active', 'unpaid', 'canceled'],
    // Retries over, access ended: only a payment (active) or the end (canceled) moves it; back to
    // past due would give access again without a payment.
    unpaid: ['active', 'canceled'],
  },
};

const KINDS: readonly PaymentKind[] = ['one-time', 'subscription'];

const EVERY_MOVE = KINDS.flatMap((kind) =>
  STATUSES.flatMap((from) => STATUSES.map((to) => ({ kind, from, to, allowed: EXPECTED_MOVES[kind][from].includes(to) }))),
);

describe('order state machine, transition by transition', () => {
  it('knows exactly the ten statuses, in this order', () => {
    expect(ORDER_STATUSES).toEqual(STATUSES);
  });

  it('checks all 200 (kind, from, to) moves', () => {
    expect(EVERY_MOVE).toHaveLength(2 * 10 * 10);
    expect(EVERY_MOVE.filter((move) => move.allowed)).toHaveLength(16 + 31);
  });

  it.each(EVERY_MOVE)('$kind: $from → $to allowed: $allowed', ({ kind, from, to, allowed }) => {
    expect(canTransition(kind, from, to)).toBe(allowed);
    expect(advance(kind, from, to)).toBe(allowed ? to : from);
  });

  it.each([
    ['active', 'incomplete'],
    ['active', 'requires_action'],
    ['active', 'failed'],
    ['active', 'created'],
    ['past_due', 'incomplete'],
    ['past_due', 'requires_action'],
    ['incomplete', 'requires_action'],
    ['incomplete', 'failed'],
    ['canceled', 'active'],
    ['canceled', 'past_due'],
    ['canceled', 'incomplete'],
    ['canceled', 'unpaid'],
    ['unpaid', 'past_due'],
    ['unpaid', 'incomplete'],
  ] as const)('refuses a late subscription webhook: %s stays %s → ignored', (from, to) => {
    expect(canTransition('subscription', from, to)).toBe(false);
    expect(advance('subscription', from, to)).toBe(from);
  });

  it('keeps a canceled subscription canceled whatever arrives', () => {
    for (const to of STATUSES) expect(advance('subscription', 'canceled', to)).toBe('canceled');
  });
});

describe('order status helpers, input by input', () => {
  it.each([
    ['created', false],
    ['requires_action', false],
    ['processing', false],
    ['succeeded', true],
    ['failed', false],
    ['canceled', false],
    ['incomplete', false],
    ['active', true],
    ['past_due', false],
    ['unpaid', false],
  ] as const)('isPaid(%s) is %s', (status, paid) => {
    expect(isPaid(status)).toBe(paid);
  });

  const SETTLED: Record<PaymentKind, readonly Status[]> = {
    'one-time': ['succeeded', 'canceled'],
    // An active subscription needs no more provider reads; past_due may still recover.
    subscription: ['succeeded', 'canceled', 'active'],
  };

  it.each(KINDS.flatMap((kind) => STATUSES.map((status) => ({ kind, status, settled: SETTLED[kind].includes(status) }))))(
    'isSettled($kind, $status) is $settled',
    ({ kind, status, settled }) => {
      expect(isSettled(kind, status)).toBe(settled);
    },
  );

  const FINAL: Record<PaymentKind, readonly Status[]> = {
    'one-time': ['succeeded', 'canceled'],
    subscription: ['canceled'],
  };

  it.each(KINDS.flatMap((kind) => STATUSES.map((status) => ({ kind, status, final: FINAL[kind].includes(status) }))))(
    'isFinal($kind, $status) is $final, and a final status moves nowhere',
    ({ kind, status, final }) => {
      expect(isFinal(kind, status)).toBe(final);
      if (final) expect(STATUSES.filter((to) => canTransition(kind, status, to))).toEqual([]);
    },
  );

  it.each([
    ['pending', null],
    ['requires_action', 'requires_action'],
    ['processing', 'processing'],
    ['succeeded', 'succeeded'],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
  ] as const)('orderStatusOfCharge(%s) is %s', (state, status) => {
    expect(orderStatusOfCharge(state)).toBe(status);
  });

  it.each([
    ['pending', null],
    ['requires_action', 'requires_action'],
    ['processing', null],
    ['succeeded', null],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
  ] as const)('orderStatusOfCardSetup(%s) is %s', (state, status) => {
    expect(orderStatusOfCardSetup(state)).toBe(status);
  });

  it.each([
    ['pending', null],
    ['incomplete', 'incomplete'],
    ['active', 'active'],
    ['past_due', 'past_due'],
    ['unpaid', 'unpaid'],
    ['paused', null],
    ['canceled', 'canceled'],
  ] as const)('orderStatusOfSubscription(%s) is %s', (state, status) => {
    expect(orderStatusOfSubscription(state)).toBe(status);
  });
});
