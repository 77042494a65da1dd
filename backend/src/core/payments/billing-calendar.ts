/** The date `months` calendar months after `from` (a 31st falls back to the month's last day, as Stripe bills). */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

export const addDays = (from: Date, days: number): Date => new Date(from.getTime() + days * 86_400_000);

/**
 * The renewal `months` months after the period ending `periodEnd`, on the billing day of a
 * subscription anchored at `anchor`: the anchor's day of the month (or the month's last day), as
 * Stripe and the sandbox bill, so a period clamped to February's 28th still renews on the 31st after.
 */
export function renewalAfter(anchor: Date, periodEnd: Date, months: number): Date {
  const elapsed = (periodEnd.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + periodEnd.getUTCMonth() - anchor.getUTCMonth();
  return addMonths(anchor, elapsed + months);
}
