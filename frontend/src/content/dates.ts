// By hand for the reason @contracts/money gives: Intl's first date formatter loads ICU's calendar
// data on the main thread while the page hydrates.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A timestamp's calendar day in UTC, as en-US writes it in full: 'November 25, 2026'. */
export function formatLongDateUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
