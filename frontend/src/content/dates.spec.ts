import { formatLongDateUtc } from './dates';

const viaIntl = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

describe('formatLongDateUtc', () => {
  it('writes the UTC calendar day in full', () => {
    expect(formatLongDateUtc('2026-11-25T23:59:59.999Z')).toBe('November 25, 2026');
    expect(formatLongDateUtc('2027-01-01T00:00:00+02:00')).toBe('December 31, 2026');
  });

  it('matches en-US Intl for a day in every month across several years', () => {
    for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2031, 0, 1); day += 9.5 * 86_400_000) {
      const iso = new Date(day).toISOString();
      expect(formatLongDateUtc(iso)).toBe(viaIntl(iso));
    }
  });

  it('leaves text that is not a timestamp as it is', () => {
    expect(formatLongDateUtc('soon')).toBe('soon');
  });
});
