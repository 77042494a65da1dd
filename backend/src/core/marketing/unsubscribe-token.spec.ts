import { signUnsubscribeToken, unsubscribeKey, verifyUnsubscribeToken } from './unsubscribe-token';

const key = unsubscribeKey(Buffer.alloc(32, 7));
const otherKey = unsubscribeKey(Buffer.alloc(32, 8));

describe('unsubscribe token', () => {
  it('names the normalised address it was made for', () => {
    const token = signUnsubscribeToken('  Ana.Lopez@Example.COM ', key);
    expect(verifyUnsubscribeToken(token, key)).toBe('ana.lopez@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('is the same for every spelling of one address', () => {
    expect(signUnsubscribeToken('ANA@example.com', key)).toBe(signUnsubscribeToken('ana@example.com', key));
  });

  it('refuses a token made with another key', () => {
    expect(verifyUnsubscribeToken(signUnsubscribeToken('ana@example.com', otherKey), key)).toBeNull();
  });

  it('refuses a token whose address was swapped', () => {
    const [, mac] = signUnsubscribeToken('ana@example.com', key).split('.');
    const forged = `${Buffer.from('bob@example.com').toString('base64url')}.${mac}`;
    expect(verifyUnsubscribeToken(forged, key)).toBeNull();
  });

  it.each([undefined, '', 'abc', 'a.b', `${'x'.repeat(5)}.${'y'.repeat(42)}`, ['a'], 42])('refuses the malformed %p', (token) => {
    expect(verifyUnsubscribeToken(token, key)).toBeNull();
  });

  it('derives a key of its own from the invitation key', () => {
    expect(unsubscribeKey(Buffer.alloc(32, 7)).equals(Buffer.alloc(32, 7))).toBe(false);
    expect(unsubscribeKey(Buffer.alloc(32, 7)).length).toBe(32);
  });
});
