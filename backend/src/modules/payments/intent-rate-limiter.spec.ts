import { HttpException } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { IntentRateLimiter } from './intent-rate-limiter';

const config = { RATE_LIMIT_INTENTS_PER_CLIENT: 3, RATE_LIMIT_INTENTS_PER_EMAIL: 2, RATE_LIMIT_WINDOW_MS: 60_000 } as AppConfig;
const status = (fn: () => void): number | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as HttpException).getStatus();
  }
};

describe('IntentRateLimiter', () => {
  it('limits one e-mail across clients, and one client across e-mails', () => {
    const limiter = new IntentRateLimiter(config);
    expect(status(() => limiter.consume('1.1.1.1', 'a@x.io', 0))).toBeNull();
    expect(status(() => limiter.consume('2.2.2.2', 'a@x.io', 0))).toBeNull();
    expect(status(() => limiter.consume('3.3.3.3', 'a@x.io', 0))).toBe(429);
    expect(status(() => limiter.consume('9.9.9.9', 'b@x.io', 0))).toBeNull();
    expect(status(() => limiter.consume('9.9.9.9', 'c@x.io', 0))).toBeNull();
    expect(status(() => limiter.consume('9.9.9.9', 'd@x.io', 0))).toBeNull();
    expect(status(() => limiter.consume('9.9.9.9', 'e@x.io', 0))).toBe(429);
  });

  it('opens a new window after the old one ends', () => {
    const limiter = new IntentRateLimiter(config);
    for (let i = 0; i < 2; i++) limiter.consume(`10.0.0.${i}`, 'a@x.io', 0);
    expect(status(() => limiter.consume('10.0.0.9', 'a@x.io', 59_999))).toBe(429);
    expect(status(() => limiter.consume('10.0.0.9', 'a@x.io', 60_000))).toBeNull();
  });
});
