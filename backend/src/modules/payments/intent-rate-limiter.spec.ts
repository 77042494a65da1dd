import { HttpException } from '@nestjs/common';
import { MemoryWindows } from '../../common/fixed-window-counter';
import type { AppConfig } from '@core/config/app-config';
import { IntentRateLimiter } from './intent-rate-limiter';

const config = { RATE_LIMIT_INTENTS_PER_CLIENT: 3, RATE_LIMIT_INTENTS_PER_EMAIL: 2, RATE_LIMIT_WINDOW_MS: 60_000 } as AppConfig;
const status = async (attempt: Promise<void>): Promise<number | null> => {
  try {
    await attempt;
    return null;
  } catch (err) {
    return (err as HttpException).getStatus();
  }
};

describe('IntentRateLimiter', () => {
  let now = 0;
  const limiter = () => new IntentRateLimiter(config, new MemoryWindows(() => now));
  beforeEach(() => (now = 0));

  it('limits one e-mail across clients, and one client across e-mails', async () => {
    const limits = limiter();
    expect(await status(limits.consume('1.1.1.1', 'a@x.io'))).toBeNull();
    expect(await status(limits.consume('2.2.2.2', 'a@x.io'))).toBeNull();
    expect(await status(limits.consume('3.3.3.3', 'a@x.io'))).toBe(429);
    expect(await status(limits.consume('9.9.9.9', 'b@x.io'))).toBeNull();
    expect(await status(limits.consume('9.9.9.9', 'c@x.io'))).toBeNull();
    expect(await status(limits.consume('9.9.9.9', 'd@x.io'))).toBeNull();
    expect(await status(limits.consume('9.9.9.9', 'e@x.io'))).toBe(429);
  });

  it('opens a new window after the old one ends', async () => {
    const limits = limiter();
    for (let i = 0; i < 2; i++) await limits.consume(`10.0.0.${i}`, 'a@x.io');
    now = 59_999;
    expect(await status(limits.consume('10.0.0.9', 'a@x.io'))).toBe(429);
    now = 60_000;
    expect(await status(limits.consume('10.0.0.9', 'a@x.io'))).toBeNull();
  });
});

describe('IntentRateLimiter, subscription confirmations', () => {
  const limits = () => new IntentRateLimiter({ ...config, RATE_LIMIT_CONFIRMATIONS_PER_ORDER: 2 }, new MemoryWindows(() => 0));

  it('limits one checkout across clients, and one client across checkouts, apart from intent creation', async () => {
    const limiter = limits();
    await limiter.consume('9.9.9.9', 'a@x.io');
    expect(await status(limiter.consumeConfirmation('1.1.1.1', 'seti_a'))).toBeNull();
    expect(await status(limiter.consumeConfirmation('2.2.2.2', 'seti_a'))).toBeNull();
    expect(await status(limiter.consumeConfirmation('3.3.3.3', 'seti_a'))).toBe(429);
    expect(await status(limiter.consumeConfirmation('9.9.9.9', 'seti_b'))).toBeNull();
    expect(await status(limiter.consumeConfirmation('9.9.9.9', 'seti_c'))).toBeNull();
    expect(await status(limiter.consumeConfirmation('9.9.9.9', 'seti_d'))).toBeNull();
    expect(await status(limiter.consumeConfirmation('9.9.9.9', 'seti_e'))).toBe(429);
  });
});
