import { addMonths } from './billing-calendar';

describe('billing calendar', () => {
  it('bills monthly on the same day, falling back to the last day of a shorter month', () => {
    expect(addMonths(new Date('2026-01-15T10:00:00Z'), 1).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(new Date('2026-11-30T23:59:00Z'), 3).toISOString()).toBe('2027-02-28T23:59:00.000Z');
  });
});
