import { parseCookie, stringifySetCookie } from 'cookie';
import { createHash, randomBytes } from 'node:crypto';

/** The cookie that binds a browser to the orders it created (httpOnly: page scripts never see it). */
const BUYER_KEY_COOKIE = 'buyer_key';

/**
 * Its name before cookie names were free of the brand: a browser that paid just before an upgrade
 * still holds its key under it, so it is read too (and given back under the new name).
 */
const LEGACY_BUYER_KEY_COOKIE = 'clear_buyer';

/** 30 days: long enough for a buyer to come back to /success or to an upgrade, then forgotten. */
const MAX_AGE_S = 30 * 24 * 60 * 60;

/** 32 random bytes, base64url: 43 characters. Anything else in the cookie is ignored and replaced. */
const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface BuyerKey {
  /** SHA-256 (hex) of the key: what orders store, useless to whoever reads the table. */
  hash: string;
  /** The Set-Cookie header value to send (again for a key already held, so its 30 days start over). */
  setCookie: string;
}

export const buyerKeyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The buyer key this request's browser holds, if its cookie has the key's shape. */
export function presentedBuyerKey(cookieHeader: string | undefined): string | null {
  const cookies = cookieHeader ? parseCookie(cookieHeader) : {};
  const key = [cookies[BUYER_KEY_COOKIE], cookies[LEGACY_BUYER_KEY_COOKIE]].find((value) => value !== undefined && KEY_SHAPE.test(value));
  return key ?? null;
}

/**
 * The browser's buyer key for a new order: the one it already holds (every order of one browser
 * shares it, so an upgrade bought after the first payment is bound too), else a new one with the
 * cookie that gives it to the browser. SameSite=Lax: sent on the top-level return from a bank's
 * authentication page, never on another site's requests.
 */
export function buyerKeyFor(cookieHeader: string | undefined, secure: boolean): BuyerKey {
  const held = presentedBuyerKey(cookieHeader);
  const key = held ?? randomBytes(32).toString('base64url');
  const setCookie = stringifySetCookie(BUYER_KEY_COOKIE, key, { httpOnly: true, sameSite: 'lax', path: '/api', maxAge: MAX_AGE_S, secure });
  return { hash: buyerKeyHash(key), setCookie };
}
