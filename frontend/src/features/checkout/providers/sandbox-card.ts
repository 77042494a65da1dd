import type { SandboxCard } from '@contracts/payments';
import { sandboxCard as copy } from '@/content/sandbox-card';

/** What the buyer typed into the sandbox's card form. */
export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
  postalCode: string;
}

export type CardField = 'number' | 'expiry' | 'cvc';

export type CardCheck = { ok: true; card: SandboxCard } | { ok: false; field: CardField; message: string };

const digits = (value: string) => value.replace(/\D/g, '');

/** '4242424242424242' → '4242 4242 4242 4242' (at most 19 digits, as card numbers go). */
export function formatCardNumber(value: string): string {
  return digits(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** '1234' → '12 / 34'; no separator is added before the year starts, so deleting never gets stuck. */
export function formatExpiry(value: string): string {
  const typed = digits(value).slice(0, 4);
  return typed.length > 2 ? `${typed.slice(0, 2)} / ${typed.slice(2)}` : typed;
}

export function formatCvc(value: string): string {
  return digits(value).slice(0, 4);
}

/**
 * The checks Stripe's card element makes before it calls the API, with its messages; whether the
 * card is accepted is the sandbox's answer, exactly as with Stripe.
 */
export function checkCard(fields: CardFields, now = new Date()): CardCheck {
  const number = digits(fields.number);
  if (number.length < 13) return { ok: false, field: 'number', message: copy.errors.number };
  const expiry = digits(fields.expiry);
  const expMonth = Number(expiry.slice(0, 2));
  const expYear = 2000 + Number(expiry.slice(2, 4));
  if (expiry.length !== 4 || expMonth < 1 || expMonth > 12) return { ok: false, field: 'expiry', message: copy.errors.expiry };
  const currentYear = now.getFullYear();
  if (expYear < currentYear || (expYear === currentYear && expMonth < now.getMonth() + 1)) {
    return { ok: false, field: 'expiry', message: copy.errors.expiryPast };
  }
  const cvc = digits(fields.cvc);
  if (cvc.length < 3) return { ok: false, field: 'cvc', message: copy.errors.cvc };
  const postalCode = fields.postalCode.trim();
  return { ok: true, card: { number, expMonth, expYear, cvc, ...(postalCode ? { postalCode } : {}) } };
}
