import { ROUTES } from '@contracts/routes';
import { checkoutHref, present, withQuery } from '@/lib/funnel-links';

/** The success hand-off (spec section 3). */
export interface SuccessHandOff {
  verification: { kind: 'subscription' | 'payment'; id: string } | null;
  plan: string | null;
  email: string | null;
  name: string | null;
  source: string | null;
  token: string | null;
  referral: string | null;
  final: boolean;
}

const SECRET_SEPARATOR = '_secret_';

function text(params: URLSearchParams, key: string): string | null {
  const value = params.get(key)?.trim();
  return value ? value : null;
}

function readVerification(params: URLSearchParams): SuccessHandOff['verification'] {
  const subscriptionId = text(params, 'subscription_id');
  if (subscriptionId) return { kind: 'subscription', id: subscriptionId };
  const paymentIntent = text(params, 'payment_intent');
  if (paymentIntent) return { kind: 'payment', id: paymentIntent };
  // Only the client secret: the intent id is the part before '_secret_'.
  const secret = text(params, 'payment_intent_client_secret');
  const fromSecret = secret?.includes(SECRET_SEPARATOR) ? secret.slice(0, secret.indexOf(SECRET_SEPARATOR)) : null;
  return fromSecret ? { kind: 'payment', id: fromSecret } : null;
}

export function readSuccessHandOff(params: URLSearchParams): SuccessHandOff {
  return {
    verification: readVerification(params),
    plan: text(params, 'plan'),
    email: text(params, 'email'),
    name: text(params, 'name'),
    source: text(params, 'source'),
    token: text(params, 'token'),
    referral: text(params, 'referral'),
    final: params.get('final') === 'true',
  };
}

/** Back to checkout for another plan or another try: plan, email and name (spec section 2, /success). */
export function retryCheckoutHref(plan: string, email: string | null, name: string | null): string {
  return checkoutHref({ plan, email: email ?? '', name: name ?? '' });
}

/** The invite funnel's next step (spec section 4): email and name, plus referral and token when present. */
export function blackcardUpsellHref(email: string | null, name: string | null, referral: string | null, token: string | null): string {
  return withQuery(ROUTES.blackcardUpsell, { email: email ?? '', name: name ?? '', referral: present(referral), token: present(token) });
}
