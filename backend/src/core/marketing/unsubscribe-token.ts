import { createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeEmail } from '@contracts/email';

/**
 * The unsubscribe link's token: `<address>.<mac>`, both base64url, where the address is the
 * normalised e-mail and the mac its HMAC-SHA256 under a key derived from INVITATION_TOKEN_KEY.
 * It needs no database row: whoever holds it may unsubscribe exactly that address, and nobody
 * can make one for another address without the key. It never expires (an old e-mail's link
 * must keep working) and is not secret beyond that: it unsubscribes, nothing more.
 */

const PURPOSE = 'clear/unsubscribe-token/v1';
const MAC_BYTES = 32;
/** Addresses are at most 320 characters, a few bytes each. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,1800}\.[A-Za-z0-9_-]{43}$/;

/** The unsubscribe key, derived so that it can never sign or open anything else. */
export function unsubscribeKey(invitationTokenKey: Buffer): Buffer {
  return createHmac('sha256', invitationTokenKey).update(PURPOSE, 'utf8').digest();
}

const macOf = (emailNormalized: string, key: Buffer): Buffer =>
  createHmac('sha256', key).update(`unsubscribe:${emailNormalized}`, 'utf8').digest();

export function signUnsubscribeToken(email: string, key: Buffer): string {
  const emailNormalized = normalizeEmail(email);
  return `${Buffer.from(emailNormalized, 'utf8').toString('base64url')}.${macOf(emailNormalized, key).toString('base64url')}`;
}

/** The normalised address a genuine token names; null for anything malformed or forged. */
export function verifyUnsubscribeToken(token: unknown, key: Buffer): string | null {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
  const [address, mac] = token.split('.');
  const emailNormalized = Buffer.from(address, 'base64url').toString('utf8');
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== MAC_BYTES || emailNormalized !== normalizeEmail(emailNormalized) || !emailNormalized.includes('@')) return null;
  return timingSafeEqual(given, macOf(emailNormalized, key)) ? emailNormalized : null;
}

/** The one-click unsubscribe endpoint (GET shows a confirmation, POST unsubscribes). */
export const UNSUBSCRIBE_PATH = '/api/unsubscribe';

/** `${publicUrl}/api/unsubscribe?token=…` for the address. */
export function unsubscribeLink(publicUrl: string, email: string, key: Buffer): string {
  const link = new URL(UNSUBSCRIBE_PATH, publicUrl);
  link.searchParams.set('token', signUnsubscribeToken(email, key));
  return link.toString();
}
