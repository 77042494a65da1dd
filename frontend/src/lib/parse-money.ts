import { minorUnitDigits } from '@contracts/money';

/**
 * Minor units of an amount of `currency` typed by a person ("12", "12.5", "$12.50", "¥1000"): at
 * most the currency's decimals (none for JPY); null for anything else.
 */
export function parseMoney(text: string, currency: string): number | null {
  const digits = minorUnitDigits(currency);
  const match = text
    .trim()
    .replace(/^[^\d.,-]+/, '')
    .match(/^(\d{1,9})(?:\.(\d+))?$/);
  const fraction = match?.[2] ?? '';
  if (!match || fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}
