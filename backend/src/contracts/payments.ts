/**
 * Request and response shapes of checkout, verification and the offline payment sandbox, shared
 * by the API and the SPA. The public endpoint shapes are the spec's (section 7); the sandbox
 * calls stand in for Stripe.js when no Stripe keys are configured and mirror its results.
 */

/**
 * The payment providers the API can be configured with. Persisted (orders.provider) and sent to
 * the browser, which loads that provider's card form.
 */
export type PaymentProviderName = 'stripe' | 'sandbox';

/** Where a refund stands at the provider, in the payment port's neutral words (stored as they are). */
export type RefundState = 'pending' | 'succeeded' | 'failed' | 'canceled';

/** Where a dispute (chargeback) of a payment stands, in the payment port's neutral words (stored as they are). */
export type DisputeOutcome = 'disputed' | 'won' | 'lost';

/** Where the browser confirms cards: Stripe's Payment Element, or the sandbox's 'Test mode' form. */
export interface PaymentsConfigResponse {
  provider: PaymentProviderName;
  /** Stripe publishable key; null for the sandbox. */
  publishableKey: string | null;
}

/** Fields every intent-creating call may carry (spec: checkout hand-off). */
export interface CheckoutParty {
  email: string;
  name: string;
  source: string;
  /** The invite token of the invite funnel, when present. */
  blackcard_token?: string;
  referral?: string;
  /** A coupon code (create-setup-intent, create-payment-intent); the server prices the order with it or refuses it with a message. */
  coupon?: string;
}

/** POST /api/create-setup-intent (subscription plans). */
export interface CreateSetupIntentRequest extends CheckoutParty {
  /** Plan id; the spec's client omits it, the server then uses standard. */
  planId?: string;
  /** The buyer ticked the add-on /checkout offers (site.json offers.bump): charged with the first payment, at the catalogue's price. */
  bump?: boolean;
}

/** POST /api/create-payment-intent (one-time plans): `amount` in dollars and `plan` the display name, both checked against the catalogue. */
export interface CreatePaymentIntentRequest extends CheckoutParty {
  amount: number;
  plan: string;
  /** As CreateSetupIntentRequest.bump: `amount` stays the plan's price; the server adds the add-on's. */
  bump?: boolean;
}

/** Answer of both intent-creating calls. */
export interface CreateIntentResponse {
  clientSecret: string;
}

/** POST /api/confirm-subscription. */
export interface ConfirmSubscriptionRequest extends CheckoutParty {
  setupIntentId: string;
  amount: number;
  plan: string;
}

export interface ConfirmSubscriptionResponse {
  subscriptionId: string;
  /**
   * Present when the bank asks the buyer to authenticate the subscription's first payment: the
   * client secret of that payment, which the browser completes (Stripe.js `handleNextAction`, or
   * the sandbox's `/api/sandbox/next-action`) before it goes on to /success.
   */
  clientSecret?: string;
}

/**
 * GET /api/one-click?planId=&email=: whether the browser that just paid (its buyer key, within
 * ONE_CLICK_WINDOW_MINUTES of that payment) may buy this plan with the card it saved.
 */
export interface OneClickOfferResponse {
  offer: { planId: string; amountCents: number; last4: string } | null;
}

/** POST /api/one-click: the checkout's party and the plan to buy with the saved card. */
export interface OneClickPurchaseRequest extends CheckoutParty {
  planId: string;
}

/**
 * What the one-click charge led to. `succeeded` (or `processing`): go on to /success with
 * payment_intent. `requires_action`: the browser completes the bank's authentication with
 * `clientSecret` first. `failed`: the bank declined (`message`); the buyer enters another card.
 */
export interface OneClickPurchaseResponse {
  paymentIntentId: string;
  status: 'succeeded' | 'processing' | 'requires_action' | 'failed';
  clientSecret: string | null;
  message: string | null;
}

/** GET /api/verify-subscription/{id} and GET /api/verify-payment/{id} (spec: verification result). */
export interface VerificationResult {
  /** Stripe's status words: succeeded, processing, requires_payment_method, requires_action, canceled; active, incomplete, past_due… for subscriptions. */
  status: string;
  /** Dollars, as the catalogue states them. */
  amount: number;
  customer_email: string | null;
  customer_name: string | null;
  referral: string | null;
  /** The order's plan id, so the success page need not trust its query string. */
  plan: string;
  /** Event id shared by the browser Purchase event and the server-side one, so ad platforms de-duplicate. */
  purchase_event_id: string;
}

/** Card details typed into the sandbox's 'Test mode' form (never sent anywhere but our own API). */
export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode?: string;
}

/** POST /api/sandbox/confirm-payment and /api/sandbox/confirm-setup. */
export interface SandboxConfirmRequest {
  clientSecret: string;
  card: SandboxCard;
  /** Absolute URL of /success (payments) or /checkout (setups) to return to after authentication. */
  returnUrl: string;
}

/** POST /api/sandbox/next-action: the sandbox's `stripe.handleNextAction` for a payment the server confirmed. */
export interface SandboxNextActionRequest {
  clientSecret: string;
  /** Absolute URL of this site to return to after authentication. */
  returnUrl: string;
}

/** The most days one move of the sandbox clock may take: a year and a day. */
export const SANDBOX_CLOCK_MAX_DAYS = 366;

/** POST /api/sandbox/clock: moves the sandbox's time forward (whole days, 1 to SANDBOX_CLOCK_MAX_DAYS) and performs what falls due. */
export interface SandboxClockRequest {
  advanceDays: number;
}

/** The sandbox's time after the move, once the events of what fell due are stored. */
export interface SandboxClockResponse {
  now: string;
}

/** Stripe's test evidence for a dispute: `winning_evidence` closes it won, `losing_evidence` lost. */
export type SandboxDisputeEvidence = 'winning_evidence' | 'losing_evidence';

/** POST /api/sandbox/disputes/:id/evidence: submits test evidence, as Stripe's `disputes.update` with `uncategorized_text`. */
export interface SandboxDisputeEvidenceRequest {
  evidence: SandboxDisputeEvidence;
}

/** The dispute once decided, in Stripe's status words. */
export interface SandboxDisputeResponse {
  id: string;
  status: 'won' | 'lost';
}

/** Mirrors the shape of Stripe.js error objects. */
export interface SandboxCardError {
  type: 'card_error' | 'validation_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
}

/**
 * Mirrors `stripe.confirmPayment` / `confirmSetup` with `redirect: 'if_required'`: either the
 * intent (status succeeded, processing…), an error, or a redirect the browser must follow to
 * authenticate (card 4000 0025 0000 3155); that page returns to `returnUrl` with
 * payment_intent / setup_intent, their client secret and redirect_status, as Stripe does.
 */
export type SandboxConfirmResponse =
  | { intent: { id: string; status: string; object: 'payment_intent' | 'setup_intent' } }
  | { error: SandboxCardError }
  | { redirectUrl: string };
