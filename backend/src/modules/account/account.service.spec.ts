import { membershipStateOf } from './account.service';

describe('membershipStateOf', () => {
  const subscription = { kind: 'subscription' as const, cancel_at_period_end: false, current_period_end: null };

  it.each([
    [{ ...subscription, status: 'active' as const }, 'active', 'Active'],
    [{ ...subscription, status: 'past_due' as const }, 'past_due', 'Past due'],
    [{ ...subscription, status: 'canceled' as const }, 'canceled', 'Canceled'],
    [{ ...subscription, status: 'incomplete' as const }, 'pending', 'Payment pending'],
    [{ ...subscription, status: 'canceled' as const, cancel_at_period_end: true }, 'canceled', 'Canceled'],
    [
      { ...subscription, status: 'active' as const, cancel_at_period_end: true, current_period_end: new Date('2026-12-24T10:00:00Z') },
      'canceling',
      'Canceling on December 24, 2026',
    ],
    [{ ...subscription, status: 'active' as const, cancel_at_period_end: true }, 'canceling', 'Canceling at the end of the period'],
    [
      { kind: 'one-time' as const, status: 'succeeded' as const, cancel_at_period_end: false, current_period_end: null },
      'paid',
      'Paid in full',
    ],
  ])('%o → %s (%s)', (row, state, statusText) => {
    expect(membershipStateOf(row)).toEqual({ state, statusText });
  });
});
