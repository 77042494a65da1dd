import { clientLimiterProvider } from '../../common/client-limiter';

/** Injection token of the coupon quotes' ClientLimiter. */
export const COUPON_CHECK_LIMITER = Symbol('CouponCheckLimiter');

/**
 * Limit on coupon quotes per client address: codes are short words an admin chose, so a script
 * could otherwise try a dictionary of them. Every quote counts, valid or not.
 */
export const couponCheckLimiter = clientLimiterProvider(COUPON_CHECK_LIMITER, (config) => ({
  name: 'coupon-checks',
  windowMs: config.RATE_LIMIT_WINDOW_MS,
  perClient: {
    max: config.RATE_LIMIT_COUPON_CHECKS,
    message: 'Too many coupon codes tried from this device. Please wait a minute and try again.',
  },
}));
