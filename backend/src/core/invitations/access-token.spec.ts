import { createHash, randomBytes } from 'node:crypto';
import {
  deriveAccessToken,
  hashAccessToken,
  invitationEmailContext,
  isWellFormedAccessToken,
  issueAccessToken,
  openAccessToken,
  sealAccessToken,
} from './access-token';

const key = randomBytes(32);

describe('access tokens', () => {
  it('are 43 base64url characters (256 bits) and differ each time', () => {
    const tokens = new Set(Array.from({ length: 200 }, issueAccessToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(isWellFormedAccessToken(token)).toBe(true);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('derived: well formed, the same for one key and context, unguessable without the key', () => {
    const token = deriveAccessToken(key, 'account-link-email:one');
    expect(isWellFormedAccessToken(token)).toBe(true);
    expect(deriveAccessToken(key, 'account-link-email:one')).toBe(token);
    expect(deriveAccessToken(key, 'account-link-email:two')).not.toBe(token);
    expect(deriveAccessToken(randomBytes(32), 'account-link-email:one')).not.toBe(token);
  });

  it.each([[''], ['abc'], ['a'.repeat(42)], ['a'.repeat(44)], [`${'a'.repeat(42)}=`], [`${'a'.repeat(42)}/`], [`${'a'.repeat(42)}.`]])(
    'refuses the malformed %j',
    (value) => {
      expect(isWellFormedAccessToken(value)).toBe(false);
    },
  );

  it('hash as the SHA-256 hex that orders record for blackcard_token', () => {
    const token = issueAccessToken();
    expect(hashAccessToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashAccessToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('seal into a payload that holds no plain token and opens to the same token', () => {
    const token = issueAccessToken();
    const context = invitationEmailContext('6f1c1f8e-0000-4000-8000-000000000001', 1);
    const sealed = sealAccessToken(token, key, context);
    expect(sealed).not.toContain(token);
    expect(sealAccessToken(token, key, context)).not.toBe(sealed);
    expect(openAccessToken(sealed, key, context)).toBe(token);
  });

  it('do not open with another key, another job context or a changed payload', () => {
    const token = issueAccessToken();
    const context = invitationEmailContext('6f1c1f8e-0000-4000-8000-000000000001', 1);
    const sealed = sealAccessToken(token, key, context);
    expect(() => openAccessToken(sealed, randomBytes(32), context)).toThrow();
    expect(() => openAccessToken(sealed, key, invitationEmailContext('6f1c1f8e-0000-4000-8000-000000000001', 2))).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[2], 'base64url');
    flipped[0] ^= 1;
    expect(() => openAccessToken([parts[0], parts[1], flipped.toString('base64url'), parts[3]].join('.'), key, context)).toThrow();
    expect(() => openAccessToken('v2.a.b.c', key, context)).toThrow(/unknown format/);
  });
});
