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

/**
 * The end of a sandbox subscription's current monthly period: it started when the subscription
 * was created and has been renewed `renewals` times since (one `invoice` object per renewal).
 */
export function currentPeriodEnd(createdAt: Date, renewals: number): Date {
  return addMonths(createdAt, renewals + 1);
}
