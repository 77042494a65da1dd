import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 24 base62 characters from the CSPRNG (~143 bits): unguessable, like Stripe's. */
function randomBase62(length = 24): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export type SandboxIdPrefix = 'pi' | 'seti' | 'sub' | 'cus' | 'pm' | 'in' | 'evt' | 'price' | 're' | 'dp';

export const sandboxId = (prefix: SandboxIdPrefix): string => `${prefix}_${randomBase62()}`;

/** The id of a sandbox subscription's first invoice, the same whenever its events are written. */
export const firstInvoiceId = (subscription: { id: string }): string => `in_${subscription.id.slice('sub_'.length)}`;

/** Stripe's client secret form: `<intent id>_secret_<random>`; the success page takes the id before `_secret_`. */
export const clientSecretFor = (intentId: string): string => `${intentId}_secret_${randomBase62()}`;

const CLIENT_SECRET = /^(pi|seti)_[0-9A-Za-z]{24}_secret_[0-9A-Za-z]{24}$/;

/** Whether a string has the shape of a sandbox client secret (anything else is never looked up). */
export const isClientSecret = (value: string): boolean => CLIENT_SECRET.test(value);

/** The intent a client secret belongs to, by its id's prefix. */
export function intentKindOfSecret(clientSecret: string): 'payment_intent' | 'setup_intent' {
  return clientSecret.startsWith('seti_') ? 'setup_intent' : 'payment_intent';
}
