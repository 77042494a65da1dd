// Formatted by hand rather than with toLocaleString or Intl.NumberFormat: the first Intl formatter
// of a page loads ICU's number data, 10–20 ms of main thread on a fast machine (four times that on
// the phones the budget is set for), inside the hydration of every page that shows a price.

/** Digits of a non-negative amount in hundredths, with en-US thousands separators and `fraction` decimals kept. */
function digits(hundredths: number, fraction: 'trimmed' | 'two'): string {
  const whole = Math.floor(hundredths / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ',');
  const cents = String(hundredths % 100).padStart(2, '0');
  if (fraction === 'two') return `${whole}.${cents}`;
  const kept = cents.replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : whole;
}

function dollars(amount: number, fraction: 'trimmed' | 'two'): string {
  const hundredths = Math.round(Math.abs(amount) * 100);
  return `$${amount < 0 && hundredths > 0 ? '-' : ''}${digits(hundredths, fraction)}`;
}

/** Whole-dollar amounts as the funnel shows them: '$97', '$1,500' (at most two decimals: '$97.5'). */
export function formatUsd(amount: number): string {
  return dollars(amount, 'trimmed');
}

/** Cents as the funnel shows them: whole dollars as formatUsd does ('$97'), others with their cents ('$48.50'). */
export function formatUsdCents(cents: number): string {
  return cents % 100 === 0 ? formatUsd(cents / 100) : dollars(cents / 100, 'two');
}
