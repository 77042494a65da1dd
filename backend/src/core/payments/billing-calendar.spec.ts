import { addMonths, renewalAfter } from './billing-calendar';

describe('billing calendar', () => {
  it('bills monthly on the same day, falling back to the last day of a shorter month', () => {
    expect(addMonths(new Date('2026-01-15T10:00:00Z'), 1).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(new Date('2026-11-30T23:59:00Z'), 3).toISOString()).toBe('2027-02-28T23:59:00.000Z');
  });

  it('finds a renewal some months on from the anchor, not from a period end clamped to a short month', () => {
    const anchor = new Date('2027-01-31T12:00:00Z');
    const clamped = addMonths(anchor, 1);
    expect(renewalAfter(anchor, clamped, 2).toISOString()).toBe('2027-04-30T12:00:00.000Z');
    expect(addMonths(clamped, 2).toISOString()).toBe('2027-04-28T12:00:00.000Z');
    expect(renewalAfter(new Date('2026-11-28T09:00:00Z'), new Date('2026-12-28T09:00:00Z'), 3).toISOString()).toBe('2027-03-28T09:00:00.000Z');
    expect(renewalAfter(new Date('2026-12-15T09:00:00Z'), new Date('2027-01-15T09:00:00Z'), 1).toISOString()).toBe('2027-02-15T09:00:00.000Z');
  });
});
