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

describe('membershipStateOf a paused membership', () => {
  const row = {
    kind: 'subscription' as const,
    status: 'active' as const,
    cancel_at_period_end: false,
    current_period_end: null,
    paused_until: new Date('2027-03-15T09:00:00Z'),
  };

  it('is paused until its end, by the time given (the provider’s), then active', () => {
    expect(membershipStateOf(row, new Date('2027-03-15T08:59:59Z'))).toEqual({ state: 'paused', statusText: 'Paused until March 15, 2027' });
    expect(membershipStateOf(row, new Date('2027-03-15T09:00:00Z'))).toEqual({ state: 'active', statusText: 'Active' });
  });

  it('reads as canceling once set to end with its period, paused or not', () => {
    expect(membershipStateOf({ ...row, cancel_at_period_end: true }, new Date('2027-01-01T00:00:00Z')).state).toBe('canceling');
  });
});
