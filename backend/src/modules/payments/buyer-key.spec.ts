import { buyerKeyFor, buyerKeyHash, presentedBuyerKey } from './buyer-key';

describe('buyer key', () => {
  it('gives a new browser a fresh 256-bit key, Secure only over https', () => {
    const plain = buyerKeyFor(undefined, false);
    const secure = buyerKeyFor(undefined, true);
    expect(plain.setCookie).not.toContain('Secure');
    expect(secure.setCookie).toContain('Secure');
    const key = presentedBuyerKey(plain.setCookie.split(';')[0]);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(plain.hash).toBe(buyerKeyHash(key as string));
    expect(secure.hash).not.toBe(plain.hash);
  });

  it('keeps the key a browser holds, and replaces anything not shaped like one', () => {
    const held = buyerKeyFor(undefined, false).setCookie.split(';')[0];
    const again = buyerKeyFor(`other=1; ${held}`, false);
    expect(again.setCookie.split(';')[0]).toBe(held);
    expect(presentedBuyerKey('clear_buyer=short')).toBeNull();
    expect(presentedBuyerKey(`clear_buyer=${'a'.repeat(44)}`)).toBeNull();
    expect(buyerKeyFor('clear_buyer=short', false).setCookie).not.toContain('clear_buyer=short');
  });
});
