import { clientLimiterProvider } from '../../common/client-limiter';

/** Injection token of the access-token checks' ClientLimiter. */
export const TOKEN_CHECK_LIMITER = Symbol('TokenCheckLimiter');

/**
 * Limit on token validations per client address, so tokens cannot be guessed by brute force
 * (with 256-bit tokens it is hopeless anyway; the limit also keeps the probing cheap for us).
 * Every check counts, found or not.
 */
export const tokenCheckLimiter = clientLimiterProvider(TOKEN_CHECK_LIMITER, (config) => ({
  name: 'token-checks',
  windowMs: config.RATE_LIMIT_WINDOW_MS,
  perClient: {
    max: config.RATE_LIMIT_TOKEN_CHECKS,
    message: 'Too many access link checks from this device. Please wait a minute and try again.',
  },
}));
