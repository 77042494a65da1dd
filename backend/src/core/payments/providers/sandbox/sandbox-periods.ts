import { addMonths } from '../../billing-calendar';

/**
 * The end of a sandbox subscription's current monthly period: it started when the subscription
 * was created and has been billed `renewals` times since (one `invoice` object per period, as the
 * clock bills them).
 */
export function currentPeriodEnd(createdAt: Date, renewals: number): Date {
  return addMonths(createdAt, renewals + 1);
}
