import { formatMoney } from '@contracts/money';

/** Money as the admin shows it, every decimal kept: '$10.00', '¥1,000'. */
export const formatCents = (cents: number, currency: string): string => formatMoney(cents, currency, { decimals: 'always' });

/** Times as UTC, like the rest of the admin screens. */
export function formatTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—';
}
