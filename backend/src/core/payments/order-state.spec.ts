import {
  advance,
  canTransition,
  ORDER_STATUSES,
  orderStatusOfCardSetup,
  orderStatusOfCharge,
  orderStatusOfSubscription,
  OrderStatus,
} from './order-state';

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
