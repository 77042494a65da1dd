import { clientLimiterProvider } from '../../common/client-limiter';

/** Injection token of the sign-in links' ClientLimiter. */
export const ACCOUNT_LINK_LIMITER = Symbol('AccountLinkLimiter');

/**
 * Limits on sign-in link requests, per client address and per e-mail address (nobody's inbox is
 * flooded from many addresses). Every request counts, whether or not the address bought
 * anything, so the limit reveals nothing either.
 */
export const accountLinkLimiter = clientLimiterProvider(ACCOUNT_LINK_LIMITER, (config) => ({
  name: 'account-links',
  windowMs: config.RATE_LIMIT_WINDOW_MS,
  perClient: {
    max: config.RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT,
    message: 'Too many sign-in link requests from this device. Please wait a few minutes and try again.',
  },
  perEmail: {
    max: config.RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL,
    message: 'Too many sign-in links were asked for this email address. Please check your inbox or wait a few minutes.',
  },
}));
