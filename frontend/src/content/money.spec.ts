import { formatUsd, formatUsdCents } from './money';

// What the funnel showed when it formatted with toLocaleString; the hand-written formatter must match it.
const viaIntl = (amount: number) => `$${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
const centsViaIntl = (cents: number) =>
  cents % 100 === 0
    ? viaIntl(cents / 100)
    : `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('formatUsd', () => {
  it.each([
    [97, '$97'],
    [0, '$0'],
    [1500, '$1,500'],
    [1997, '$1,997'],
    [1234567, '$1,234,567'],
    [97.5, '$97.5'],
    [48.25, '$48.25'],
    [-10, '$-10'],
  ])('shows %d as %s', (amount, shown) => {
    expect(formatUsd(amount)).toBe(shown);
  });

  it('matches en-US toLocaleString for whole and fractional amounts', () => {
    const amounts = [1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 12.3, 0.5, 1000.05, -1500];
    for (const amount of amounts) expect(formatUsd(amount)).toBe(viaIntl(amount));
  });
});

describe('formatUsdCents', () => {
  it.each([
    [9700, '$97'],
    [4850, '$48.50'],
    [1, '$0.01'],
    [99999, '$999.99'],
    [150005, '$1,500.05'],
    [-250, '$-2.50'],
  ])('shows %d cents as %s', (cents, shown) => {
    expect(formatUsdCents(cents)).toBe(shown);
  });

  it('matches en-US toLocaleString for every cent up to $30 and a spread of larger amounts', () => {
    for (let cents = 0; cents <= 3000; cents++) expect(formatUsdCents(cents)).toBe(centsViaIntl(cents));
    for (let cents = 3001; cents < 50_000_000; cents = Math.floor(cents * 1.37) + 7)
      expect(formatUsdCents(cents)).toBe(centsViaIntl(cents));
  });
});
