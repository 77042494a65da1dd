const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCents = (cents: number): string => usd.format(cents / 100);

/** Cents of a dollar amount typed by the admin ("12", "12.5", "12.50"); null for anything else. */
export function parseDollars(text: string): number | null {
  const match = text
    .trim()
    .replace(/^\$/, '')
    .match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Times as UTC, like the rest of the admin screens. */
export function formatTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—';
}
