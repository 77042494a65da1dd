/** Whole-dollar amounts as the funnel shows them: '$97', '$1,500'. */
export function formatUsd(amount: number): string {
  return `$${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}
