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
    expect(presentedBuyerKey('buyer_key=short')).toBeNull();
    expect(presentedBuyerKey(`buyer_key=${'a'.repeat(44)}`)).toBeNull();
    expect(buyerKeyFor('buyer_key=short', false).setCookie).not.toContain('buyer_key=short');
  });

  it('is named without the brand, and still reads the key of a browser that paid under the old name', () => {
    expect(buyerKeyFor(undefined, false).setCookie).toMatch(/^buyer_key=[A-Za-z0-9_-]{43};/);
    const key = 'k'.repeat(43);
    expect(presentedBuyerKey(`clear_buyer=${key}`)).toBe(key);
    expect(buyerKeyFor(`clear_buyer=${key}`, false).setCookie.split(';')[0]).toBe(`buyer_key=${key}`);
    expect(presentedBuyerKey(`clear_buyer=${'o'.repeat(43)}; buyer_key=${key}`)).toBe(key);
    expect(presentedBuyerKey(`clear_buyer=${key}; buyer_key=short`)).toBe(key);
  });
});
