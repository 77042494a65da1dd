import type { SaveOfferDiscount } from './cancellation';
import type { PaymentProviderName } from './payments';

/** The header carrying the account session's CSRF token on every state-changing account request. */
export const ACCOUNT_CSRF_HEADER = 'x-csrf-token';

/** Path of the account session cookie: sent with account API calls only. */
export const ACCOUNT_COOKIE_PATH = '/api/account';

export interface AccountLinkRequest {
  email: string;
}

export interface AccountSessionRequest {
  token: string;
}

/** A signed-in account: the CSRF token its POSTs carry in ACCOUNT_CSRF_HEADER. */
export interface AccountSessionResponse {
  csrfToken: string;
  expiresAt: string;
}

/** Where a membership stands, as the account page words it. */
export type MembershipState = 'active' | 'paused' | 'past_due' | 'canceling' | 'canceled' | 'paid' | 'pending';

interface AccountPayment {
  sequence: number;
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  paidAt: string;
}

export interface AccountMembership {
  orderId: string;
  planName: string;
  displayText: string;
  state: MembershipState;
  /** The state in words: 'Active', 'Past due', 'Canceling on November 24, 2026', 'Canceled', 'Paid in full'. */
  statusText: string;
  /** ISO time the paid period ends (subscriptions); null when unknown or not a subscription. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canCancel: boolean;
  canResume: boolean;
  /** A subscription whose card can be changed (our card form, or the provider's billing portal). */
  canUpdateCard: boolean;
  /** ISO time a pause taken in the cancellation flow ends (state 'paused' until then); null when not paused. */
  pausedUntil: string | null;
  /** What the cancellation flow may offer instead of cancelling: a pause, and the save offer's discount (null: none for this member). */
  offers: { pause: boolean; discount: SaveOfferDiscount | null };
  payments: AccountPayment[];
}

export interface AccountResponse extends AccountSessionResponse {
  provider: PaymentProviderName;
  memberships: AccountMembership[];
}

export interface AccountOrderRequest {
  orderId: string;
}

export interface BillingPortalResponse {
  url: string;
}

/** A card setup for the sandbox's card form, confirmed by the browser and then applied with its id. */
export interface CardUpdateResponse {
  setupIntentId: string;
  clientSecret: string;
}

export interface ApplyCardUpdateRequest extends AccountOrderRequest {
  setupIntentId: string;
}
