import { BadRequestException } from '@nestjs/common';
import { revenueRange } from './revenue-range';

describe('revenueRange', () => {
  const now = new Date('2026-03-15T10:00:00Z');

  it('defaults to the twelve months up to the last one that has ended', () => {
    expect(revenueRange(undefined, undefined, now)).toEqual({ fromMonth: '2025-03-01', toMonth: '2026-02-01' });
  });

  it('takes both months inclusive, and twelve months before `to` without `from`', () => {
    expect(revenueRange('2025-01', '2025-12', now)).toEqual({ fromMonth: '2025-01-01', toMonth: '2025-12-01' });
    expect(revenueRange(undefined, '2025-06', now)).toEqual({ fromMonth: '2024-07-01', toMonth: '2025-06-01' });
  });

  it.each([
    ['2025-13', '2025-12', /from must be a month written YYYY-MM/],
    ['2025-01', '2025-1', /to must be a month written YYYY-MM/],
    ['2025-06', '2025-05', /from must not be after to/],
    ['2022-01', '2025-01', /at most 36 months/],
  ])('refuses from=%s to=%s readably', (from, to, message) => {
    expect(() => revenueRange(from, to, now)).toThrow(BadRequestException);
    expect(() => revenueRange(from, to, now)).toThrow(message);
  });
});
