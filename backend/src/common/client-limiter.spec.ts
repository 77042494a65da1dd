import { HttpException } from '@nestjs/common';
import { ClientLimiter, type ClientLimits } from './client-limiter';
import { MemoryWindows } from './fixed-window-counter';

const PER_CLIENT = { max: 2, message: 'Too many from this device.' };
const PER_EMAIL = { max: 1, message: 'Too many for this email address.' };

/** The 429's message, or null when the attempt was let through. */
const refusal = async (attempt: Promise<void>): Promise<string | null> => {
  try {
    await attempt;
    return null;
  } catch (err) {
    expect((err as HttpException).getStatus()).toBe(429);
    return ((err as HttpException).getResponse() as { message: string }).message;
  }
};

describe('ClientLimiter', () => {
  let now = 0;
  let windows: MemoryWindows;
  const limiter = (limits: Partial<ClientLimits> = {}) =>
    new ClientLimiter(windows, { name: 'checks', windowMs: 60_000, perClient: PER_CLIENT, ...limits });
  beforeEach(() => {
    now = 0;
    windows = new MemoryWindows(() => now);
  });

  it('counts per client address, with the limit’s own message, until the window ends', async () => {
    const checks = limiter();
    expect(await refusal(checks.consume('1.1.1.1'))).toBeNull();
    expect(await refusal(checks.consume('1.1.1.1'))).toBeNull();
    expect(await refusal(checks.consume('1.1.1.1'))).toBe(PER_CLIENT.message);
    expect(await refusal(checks.consume('2.2.2.2'))).toBeNull();
    now = 60_000;
    expect(await refusal(checks.consume('1.1.1.1'))).toBeNull();
  });

  it('counts each use apart: another name, another count', async () => {
    const [coupons, tokens] = [limiter({ name: 'coupon-checks' }), limiter({ name: 'token-checks' })];
    await coupons.consume('1.1.1.1');
    await coupons.consume('1.1.1.1');
    expect(await refusal(coupons.consume('1.1.1.1'))).toBe(PER_CLIENT.message);
    expect(await refusal(tokens.consume('1.1.1.1'))).toBeNull();
  });

  it('with perEmail, limits one address across clients and one client across addresses, each with its message', async () => {
    const links = limiter({ perEmail: PER_EMAIL });
    expect(await refusal(links.consume('1.1.1.1', 'a@x.io'))).toBeNull();
    expect(await refusal(links.consume('2.2.2.2', 'a@x.io'))).toBe(PER_EMAIL.message);
    expect(await refusal(links.consume('3.3.3.3', 'b@x.io'))).toBeNull();
    expect(await refusal(links.consume('3.3.3.3', 'c@x.io'))).toBeNull();
    expect(await refusal(links.consume('3.3.3.3', 'd@x.io'))).toBe(PER_CLIENT.message);
  });

  it('refuses to count a per-address limit without the address', async () => {
    await expect(limiter({ perEmail: PER_EMAIL }).consume('1.1.1.1')).rejects.toThrow('The checks limit counts per e-mail address');
  });
});
