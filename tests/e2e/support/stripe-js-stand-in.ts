import type { Page } from '@playwright/test';

/**
 * What the stand-in's confirm calls answer, in Stripe.js's result shapes; the intent's id is the
 * client secret's prefix (pi_…_secret_… → pi_…), as Stripe's is.
 */
export interface StandInAnswers {
  confirmSetup?: { status: string } | { error: string };
  confirmPayment?: { status: string } | { error: string };
}

/** One call of confirmSetup or confirmPayment, with the client secret of the Elements group it was given. */
interface StandInConfirmation {
  method: 'confirmSetup' | 'confirmPayment';
  clientSecret: string;
  returnUrl: string;
  redirect: string;
}

/** What the page did with Stripe.js, as the stand-in saw it. */
export interface StandInRecord {
  publishableKey: string | null;
  /** Each `elements()` group's client secret, in order. */
  elementsClientSecrets: string[];
  /** Each element created: its type and layout. */
  created: { type: string; layout: string | undefined }[];
  mounted: number;
  destroyed: number;
  confirmations: StandInConfirmation[];
}

/** The URL @stripe/stripe-js 10 injects (its RELEASE_TRAIN, 'endive'): node_modules/@stripe/stripe-js/dist/pure.js. */
export const STRIPE_JS_URL = 'https://js.stripe.com/endive/stripe.js';
const ELEMENT_FRAME_URL = 'https://js.stripe.com/endive/elements-inner-payment-stand-in.html';

/**
 * Runs in the page as Stripe.js: only the surface stripe-provider.tsx calls. The Payment Element is
 * an iframe on js.stripe.com (so the page's CSP frame-src is exercised as by the real one) and says
 * 'ready' once its frame has loaded.
 */
function standIn(answers: StandInAnswers, frameUrl: string): void {
  type Handler = () => void;
  const record: StandInRecord = {
    publishableKey: null,
    elementsClientSecrets: [],
    created: [],
    mounted: 0,
    destroyed: 0,
    confirmations: [],
  };
  (window as unknown as { __stripeStandIn: StandInRecord }).__stripeStandIn = record;
  const intentId = (clientSecret: string) => clientSecret.split('_secret_')[0];

  function confirm(method: 'confirmSetup' | 'confirmPayment', intentKey: 'setupIntent' | 'paymentIntent') {
    return (params: { elements: { clientSecret: string }; confirmParams: { return_url: string }; redirect: string }) => {
      const clientSecret = params.elements.clientSecret;
      const confirmation = { method, clientSecret, returnUrl: params.confirmParams.return_url, redirect: params.redirect };
      record.confirmations.push(confirmation);
      // Told to the test at once: a confirmed payment leaves the page, and this record with it.
      void (window as unknown as { __stripeStandInConfirmed: (c: StandInConfirmation) => Promise<void> }).__stripeStandInConfirmed(
        confirmation,
      );
      const answer = answers[method] ?? { status: 'succeeded' };
      if ('error' in answer) return Promise.resolve({ error: { type: 'card_error', message: answer.error } });
      return Promise.resolve({ [intentKey]: { id: intentId(clientSecret), status: answer.status } });
    };
  }

  function Stripe(publishableKey: string) {
    record.publishableKey = publishableKey;
    return {
      elements(options: { clientSecret: string }) {
        record.elementsClientSecrets.push(options.clientSecret);
        return {
          clientSecret: options.clientSecret,
          create(type: string, elementOptions?: { layout?: string }) {
            record.created.push({ type, layout: elementOptions?.layout });
            const handlers: Record<string, Handler[]> = {};
            let frame: HTMLIFrameElement | null = null;
            return {
              on(event: string, handler: Handler) {
                (handlers[event] ??= []).push(handler);
              },
              mount(target: HTMLElement) {
                record.mounted += 1;
                frame = document.createElement('iframe');
                frame.title = 'Secure payment input frame';
                frame.src = frameUrl;
                frame.addEventListener('load', () => (handlers.ready ?? []).forEach((handler) => handler()));
                target.appendChild(frame);
              },
              destroy() {
                record.destroyed += 1;
                frame?.remove();
              },
            };
          },
        };
      },
      confirmSetup: confirm('confirmSetup', 'setupIntent'),
      confirmPayment: confirm('confirmPayment', 'paymentIntent'),
      handleNextAction({ clientSecret }: { clientSecret: string }) {
        return Promise.resolve({ paymentIntent: { id: intentId(clientSecret), status: 'succeeded' } });
      },
      retrievePaymentIntent(clientSecret: string) {
        return Promise.resolve({ paymentIntent: { id: intentId(clientSecret), status: 'succeeded' } });
      },
    };
  }
  // @stripe/stripe-js warns about any other version with a test key.
  Stripe.version = 'endive';
  (window as unknown as { Stripe: typeof Stripe }).Stripe = Stripe;
}

/** What the test sees of Stripe.js as the page uses it; both lists fill as it happens. */
export interface StandInLog {
  /** Every js.stripe.com URL the page asked for. */
  requested: string[];
  /** Every confirmSetup and confirmPayment call, kept across the page's navigations. */
  confirmations: StandInConfirmation[];
}

/**
 * Serves the stand-in for every js.stripe.com request the page makes (js.stripe.com cannot be
 * reached offline): Stripe.js itself and the Payment Element's frame.
 */
export async function serveStripeJsStandIn(page: Page, answers: StandInAnswers = {}): Promise<StandInLog> {
  const requested: string[] = [];
  const confirmations: StandInConfirmation[] = [];
  await page.exposeFunction('__stripeStandInConfirmed', (confirmation: StandInConfirmation) => confirmations.push(confirmation));
  await page.route('https://js.stripe.com/**', (route) => {
    const url = route.request().url();
    requested.push(url);
    if (url.split('?')[0] === STRIPE_JS_URL)
      return route.fulfill({
        contentType: 'text/javascript',
        body: `(${standIn.toString()})(${JSON.stringify(answers)}, ${JSON.stringify(ELEMENT_FRAME_URL)});`,
      });
    if (url === ELEMENT_FRAME_URL)
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Payment Element stand-in</title><p>Card</p>' });
    return route.abort();
  });
  return { requested, confirmations };
}

/** What the stand-in has recorded so far (null before Stripe.js loaded). */
export function standInRecord(page: Page): Promise<StandInRecord | null> {
  return page.evaluate(() => (window as unknown as { __stripeStandIn?: StandInRecord }).__stripeStandIn ?? null);
}
