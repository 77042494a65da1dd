import { advance, orderStatusOfSubscription } from '../../../orders/order-state';
import { stripeIdKind } from './stripe-ids';
import { disputeOutcome, intentState, refundState, subscriptionState } from './stripe-states';

describe("Stripe's vocabulary in neutral words", () => {
  it('reads payment and setup intent statuses, a refused card being a failure only with its error', () => {
    expect(intentState('succeeded', false)).toBe('succeeded');
    expect(intentState('processing', false)).toBe('processing');
    expect(intentState('requires_capture', false)).toBe('processing');
    expect(intentState('requires_action', false)).toBe('requires_action');
    expect(intentState('requires_confirmation', false)).toBe('requires_action');
    expect(intentState('canceled', false)).toBe('canceled');
    expect(intentState('requires_payment_method', true)).toBe('failed');
    expect(intentState('requires_payment_method', false)).toBe('pending');
    expect(intentState('some_future_word', true)).toBe('pending');
  });

  it('reads subscription statuses', () => {
    expect(subscriptionState('active')).toBe('active');
    expect(subscriptionState('trialing')).toBe('active');
    expect(subscriptionState('incomplete')).toBe('incomplete');
    expect(subscriptionState('past_due')).toBe('past_due');
    expect(subscriptionState('canceled')).toBe('canceled');
    expect(subscriptionState('paused')).toBe('paused');
    expect(subscriptionState('some_future_word')).toBe('pending');
  });

  it('ends access when Stripe stops retrying (unpaid) or a first payment expired (incomplete_expired)', () => {
    // 'Mark the subscription as unpaid' after the last retry: no longer past due, whose access lasts a grace period.
    expect(subscriptionState('unpaid')).toBe('unpaid');
    expect(orderStatusOfSubscription(subscriptionState('unpaid'))).toBe('unpaid');
    expect(advance('subscription', 'past_due', orderStatusOfSubscription(subscriptionState('unpaid'))!)).toBe('unpaid');
    expect(subscriptionState('incomplete_expired')).toBe('canceled');
    expect(advance('subscription', 'incomplete', orderStatusOfSubscription(subscriptionState('incomplete_expired'))!)).toBe('canceled');
    // A later payment makes an unpaid subscription active again; a retry's past due does not bring access back.
    expect(advance('subscription', 'unpaid', orderStatusOfSubscription(subscriptionState('active'))!)).toBe('active');
    expect(advance('subscription', 'unpaid', orderStatusOfSubscription(subscriptionState('past_due'))!)).toBe('unpaid');
  });

  it('reads dispute statuses: won and lost final, a prevented one lost unless blocked, a closed inquiry won, appeals and open inquiries still open', () => {
    expect(disputeOutcome('won')).toBe('won');
    expect(disputeOutcome('lost')).toBe('lost');
    // Dispute prevention resolved it by giving the cardholder the money back, or blocked it.
    expect(disputeOutcome('prevented', 'resolution')).toBe('lost');
    expect(disputeOutcome('prevented', 'block')).toBe('won');
    expect(disputeOutcome('prevented')).toBe('lost');
    // An inquiry that closed without a chargeback kept the money with us.
    expect(disputeOutcome('warning_closed', 'inquiry')).toBe('won');
    for (const status of ['needs_response', 'under_review', 'appeal_needs_response', 'appeal_under_review', 'warning_needs_response'])
      expect(disputeOutcome(status, 'chargeback')).toBe('disputed');
  });

  it('reads refund statuses, one waiting for the customer being still pending', () => {
    expect(refundState('succeeded')).toBe('succeeded');
    expect(refundState('failed')).toBe('failed');
    expect(refundState('canceled')).toBe('canceled');
    expect(refundState('requires_action')).toBe('pending');
    expect(refundState(null)).toBe('pending');
  });

  it('names the object an id stands for by its prefix, and refuses other shapes', () => {
    expect(stripeIdKind('pi_3N0000000000000000000000')).toBe('charge');
    expect(stripeIdKind('seti_1N00000000000000000000')).toBe('setup');
    expect(stripeIdKind('sub_1N000000000000000000000')).toBe('subscription');
    expect(stripeIdKind('pi_short')).toBeNull();
    expect(stripeIdKind('sub_1N00000000000000-000000')).toBeNull();
    expect(stripeIdKind('cus_1N000000000000000000000')).toBeNull();
    expect(stripeIdKind('')).toBeNull();
  });
});
