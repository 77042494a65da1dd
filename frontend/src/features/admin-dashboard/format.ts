import { formatMoney } from '@contracts/money';
import { findPlan } from '@contracts/plans';

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('en-US');

/** Money as the admin shows it, every decimal kept: '$10.00', '¥1,000'. */
export const formatCents = (cents: number, currency: string) => formatMoney(cents, currency, { decimals: 'always' });
export const formatRate = (rate: number) => percent.format(rate);
export const formatCount = (value: number) => count.format(value);

/** Times as UTC, like the date range: the dashboard never mixes time zones. */
export function formatTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—';
}

export function planName(planId: string): string {
  return findPlan(planId)?.name ?? planId;
}

/** YYYY-MM-DD of a UTC day, `daysAgo` before today. */
export function utcDay(daysAgo = 0, now = new Date()): string {
  return new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
