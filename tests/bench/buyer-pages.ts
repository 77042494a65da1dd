import { formatPrice } from '@contracts/money';
import { CURRENCY, type Plan, planOf, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';
import type { SmtpSink } from '../fakes/smtp-sink';

/** One page a buyer sees, and how to reach it the way a buyer does. */
export interface BuyerPage {
  name: string;
  /**
   * The path and query for one load. Called once per run: a page reached through something a
   * load uses up (the e-mailed sign-in link works once) gets a fresh one each time.
   */
  path: () => Promise<string>;
  /** Text the page shows once reached as intended (checked before measuring it, so the figures are that page's). */
  shows: string;
}

/** The SPA's default `source` (frontend content/config.ts: the programme's short name). */
const DEFAULT_SOURCE = site.brand.programName;

/** The sandbox's success card, as the 'Test mode' form sends it. */
const SUCCESS_CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function api(baseUrl: string) {
  return async <T = Record<string, unknown>>(path: string, body: object): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/** A URL the way frontend lib/funnel-links.ts withQuery writes it (keys in order, empty ones left out). */
function withQuery(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value);
  return `${path}?${query.toString()}`;
}

/** The lead form's hand-off to /checkout (frontend lead-request.ts checkoutPath). */
export function checkoutPath(plan: Plan, buyer: { email: string; name: string }): string {
  return withQuery('/checkout', { plan: plan.id, email: buyer.email, name: buyer.name });
}

/**
 * Pays `plan` through the sandbox with the 4242 card, calling the API as the SPA's checkout does
 * (use-checkout-intent.ts, use-checkout-payment.ts), and returns the /success path checkout
 * navigates to (checkout-hand-off.ts successPath), once verification says the payment went through.
 */
async function paySandbox(baseUrl: string, plan: Plan, buyer: { email: string; name: string }): Promise<string> {
  const post = api(baseUrl);
  const party = { ...buyer, source: DEFAULT_SOURCE };
  const handOff = { plan: plan.id, email: buyer.email, name: buyer.name, source: DEFAULT_SOURCE };
  let id: { subscription_id: string } | { payment_intent: string };
  let verify: string;
  if (plan.kind === 'subscription') {
    const { clientSecret } = await post<{ clientSecret: string }>('/api/create-setup-intent', { ...party, planId: plan.id });
    const confirmed = await post<{ intent?: { id: string; status: string } }>('/api/sandbox/confirm-setup', {
      clientSecret,
      card: SUCCESS_CARD,
      returnUrl: `${baseUrl}${withQuery('/checkout', handOff)}`,
    });
    if (confirmed.intent?.status !== 'succeeded') throw new Error(`The sandbox setup answered ${JSON.stringify(confirmed)}`);
    const { subscriptionId } = await post<{ subscriptionId: string }>('/api/confirm-subscription', {
      ...party,
      setupIntentId: confirmed.intent.id,
      amount: plan.amount,
      plan: plan.name,
    });
    id = { subscription_id: subscriptionId };
    verify = `/api/verify-subscription/${subscriptionId}`;
  } else {
    const { clientSecret } = await post<{ clientSecret: string }>('/api/create-payment-intent', {
      ...party,
      amount: plan.amount,
      plan: plan.name,
    });
    const confirmed = await post<{ intent?: { id: string; status: string } }>('/api/sandbox/confirm-payment', {
      clientSecret,
      card: SUCCESS_CARD,
      returnUrl: `${baseUrl}${withQuery('/success', handOff)}`,
    });
    if (confirmed.intent?.status !== 'succeeded') throw new Error(`The sandbox payment answered ${JSON.stringify(confirmed)}`);
    id = { payment_intent: confirmed.intent.id };
    verify = `/api/verify-payment/${confirmed.intent.id}`;
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${baseUrl}${verify}`);
    const status = response.ok ? ((await response.json()) as { status: string }).status : null;
    if (status === 'succeeded' || status === 'active') return withQuery('/success', { ...id, ...handOff });
    await sleep(100);
  }
  throw new Error(`${verify} did not say succeeded or active within 10 s`);
}

/** Asks for an account sign-in link for `email` and returns its path and query from the e-mail the SMTP sink received. */
async function signInLink(baseUrl: string, smtp: SmtpSink, email: string): Promise<string> {
  const linkMails = () => smtp.messages.filter((m) => m.envelope.to.includes(email) && /\/account\?token=/.test(m.text ?? ''));
  const before = linkMails().length;
  await api(baseUrl)('/api/account/link', { email });
  for (let attempt = 0; attempt < 200; attempt++) {
    const mails = linkMails();
    if (mails.length > before) {
      const link = mails[mails.length - 1].text?.match(/https?:\/\/\S+?(\/account\?token=[A-Za-z0-9_-]+)/)?.[1];
      if (!link) throw new Error('The sign-in e-mail holds no /account?token= link');
      return link;
    }
    await sleep(100);
  }
  throw new Error('No sign-in e-mail reached the SMTP sink within 20 s');
}

/**
 * Every page a buyer sees, each reached as a buyer reaches it: a lead's hand-off for checkout and
 * the upsells, an invitee's token for /blackcard (spec section 4: a valid query token grants
 * access), /success after a real sandbox payment (one subscription, one one-time plan), /account
 * signed out (its sign-in form) and as a fresh e-mailed link per load opens it (its sign-in button).
 */
export async function buyerPages(baseUrl: string, smtp: SmtpSink): Promise<BuyerPage[]> {
  const post = api(baseUrl);
  const visitor = { email: 'bench-visitor@example.com', name: 'Bench Visitor' };
  await post('/api/leads', visitor);
  const { accessToken } = await post('/api/invitation-gate', visitor);
  if (typeof accessToken !== 'string')
    throw new Error('POST /api/invitation-gate returned no accessToken: the bench needs INVITATION_DELIVERY=instant');
  const buyer = { email: 'bench-buyer@example.com', name: 'Bench Buyer' };
  const oneTimeBuyer = { email: 'bench-buyer-once@example.com', name: 'Bench Buyer' };
  const subscriptionSuccess = await paySandbox(baseUrl, OFFERS.default, buyer);
  const oneTimeSuccess = await paySandbox(baseUrl, planOf('full-payment'), oneTimeBuyer);
  const fixed = (path: string) => () => Promise.resolve(path);
  // The site the server under test was built from (SITE_DIR, else site/): its prices and names.
  const payLabel = (plan: Plan) => `Pay ${formatPrice(plan.amount, CURRENCY)}`;
  const success = loadCopy<{ welcome: { heading: string } }>(siteDir(__dirname), defaultSiteDir(__dirname), 'copy/success.json', site);
  return [
    { name: '/', path: fixed('/'), shows: 'Your next level of greatness starts here.' },
    { name: '/invitation', path: fixed('/invitation'), shows: 'Your Invitation Awaits.' },
    { name: '/blackcard', path: fixed(withQuery('/blackcard', { token: accessToken })), shows: "YOU'VE BEEN INVITED TO THE 11 MILLION" },
    { name: '/checkout', path: fixed(checkoutPath(OFFERS.default, visitor)), shows: payLabel(OFFERS.default) },
    { name: '/checkout full-payment', path: fixed(checkoutPath(planOf('full-payment'), visitor)), shows: payLabel(planOf('full-payment')) },
    // The spec's /upsell links carry email, name and referral.
    { name: '/upsell', path: fixed(withQuery('/upsell', visitor)), shows: 'Pay in Full' },
    // Where /success sends an invitee who bought the standard plan (spec section 4, success page).
    {
      name: '/blackcard-upsell',
      path: fixed(withQuery('/blackcard-upsell', { ...visitor, token: accessToken })),
      shows: "You've completed Level 1 – The Gateway",
    },
    { name: '/success', path: fixed(subscriptionSuccess), shows: 'Payment Confirmed!' },
    { name: '/success full-payment', path: fixed(oneTimeSuccess), shows: success.welcome.heading },
    { name: '/account', path: fixed('/account'), shows: 'Send me a sign-in link' },
    // The page an e-mailed link opens: it signs in only when its button is pressed (mail scanners load links).
    { name: '/account sign-in link', path: () => signInLink(baseUrl, smtp, buyer.email), shows: 'Sign in to your account' },
  ];
}
