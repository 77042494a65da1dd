import type { CheckoutParty } from '@contracts/payments';
import { OFFERS, resolvePlan, type Plan } from '@contracts/plans';
import { ROUTES } from '@contracts/routes';
import { defaultSource } from '@/content/config';
import { present, withQuery } from '@/lib/funnel-links';
import { resolveReferral } from '@/lib/referral';

/** The checkout hand-off (spec section 3): what arrives in /checkout's query string. */
export interface CheckoutHandOff {
  plan: Plan;
  email: string | null;
  name: string | null;
  source: string;
  /** The invite token; the API calls it blackcard_token, every URL of the funnel calls it token. */
  token: string | null;
  referral: string | null;
  /** A coupon code (issue 18); priced by the server, never trusted for an amount. */
  coupon: string | null;
}

/**
 * The plan /checkout sells: the add-on is only ever sold with another plan, so its id falls back
 * as an unknown plan's does (here, not in contracts/plans.ts, which every buyer page loads).
 */
function checkoutPlan(id: string | null): Plan {
  const plan = resolvePlan(id);
  return plan === OFFERS.bump ? OFFERS.default : plan;
}

function text(params: URLSearchParams, key: string): string | null {
  const value = params.get(key)?.trim();
  return value ? value : null;
}

export function readCheckoutHandOff(params: URLSearchParams): CheckoutHandOff {
  return {
    plan: checkoutPlan(params.get('plan')),
    email: text(params, 'email'),
    name: text(params, 'name'),
    source: text(params, 'source') ?? defaultSource,
    token: text(params, 'token'),
    referral: text(params, 'referral') ?? resolveReferral(),
    coupon: text(params, 'coupon'),
  };
}

/** What the prerendered page renders with before the visitor's query is known (nothing of it is shown). */
export const frameHandOff: CheckoutHandOff = {
  plan: resolvePlan(null),
  email: null,
  name: null,
  source: defaultSource,
  token: null,
  referral: null,
  coupon: null,
};

/** Set when the buyer comes back from authenticating a card for a subscription (Stripe's return URL parameters). */
export interface SetupReturn {
  setupIntentId: string;
  redirectStatus: string;
}

export function readSetupReturn(params: URLSearchParams): SetupReturn | null {
  const setupIntentId = text(params, 'setup_intent');
  const redirectStatus = text(params, 'redirect_status');
  return setupIntentId && redirectStatus ? { setupIntentId, redirectStatus } : null;
}

/** The fields every checkout API call carries; only called once email and name are known. */
export function checkoutParty(handOff: CheckoutHandOff, email: string, name: string): CheckoutParty {
  return {
    email,
    name,
    source: handOff.source,
    ...(handOff.token ? { blackcard_token: handOff.token } : {}),
    ...(handOff.referral ? { referral: handOff.referral } : {}),
  };
}

function handOffQuery(handOff: CheckoutHandOff) {
  return {
    plan: handOff.plan.id,
    email: handOff.email,
    name: handOff.name,
    source: handOff.source,
    token: present(handOff.token),
    referral: present(handOff.referral),
  };
}

/** /success after a payment or subscription, the id first (spec section 4, with the token under one name). */
export function successPath(handOff: CheckoutHandOff, id: { subscription_id: string } | { payment_intent: string }): string {
  return withQuery(ROUTES.success, { ...id, ...handOffQuery(handOff) });
}

/** Where the provider sends the buyer back after authenticating a one-time payment; it appends payment_intent itself. */
export function paymentReturnUrl(handOff: CheckoutHandOff): string {
  return new URL(withQuery(ROUTES.success, handOffQuery(handOff)), window.location.origin).href;
}

/** Setups come back to checkout, which still has to create the subscription. */
export function setupReturnUrl(handOff: CheckoutHandOff): string {
  return new URL(withQuery(ROUTES.checkout, handOffQuery(handOff)), window.location.origin).href;
}

/** The checkout URL without the provider's return parameters, for a fresh attempt. */
export function checkoutPath(handOff: CheckoutHandOff): string {
  return withQuery(ROUTES.checkout, handOffQuery(handOff));
}
