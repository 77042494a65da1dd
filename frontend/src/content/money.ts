/** Whole-dollar amounts as the funnel shows them: '$97', '$1,500'. */
export function formatUsd(amount: number): string {
  return `$${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}

/** Cents as the funnel shows them: whole dollars as formatUsd does ('$97'), others with their cents ('$48.50'). */
export function formatUsdCents(cents: number): string {
  if (cents % 100 === 0) return formatUsd(cents / 100);
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
