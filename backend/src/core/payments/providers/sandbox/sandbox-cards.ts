import type { SandboxCard, SandboxCardError } from '@contracts/payments';
import { CARD_ERRORS } from './sandbox-card-errors';
import { DISPUTED_CARD_OUTCOME } from './sandbox-disputes';

/** What a Stripe test card does when confirmed (https://docs.stripe.com/testing). */
export type CardOutcome =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'requires_authentication'
  | 'always_authenticate'
  | 'attaches_then_fails'
  | typeof DISPUTED_CARD_OUTCOME;

/**
 * Whether a charge the buyer is not present for (a renewal, a later instalment, a retry) fails
 * on a card saved with this outcome: its own declines, and a bank that asks for authentication
 * on every payment (nobody is there to give it).
 */
export const failsOffSession = (outcome: string | undefined): boolean =>
  outcome === 'declined' || outcome === 'insufficient_funds' || outcome === 'attaches_then_fails' || outcome === 'always_authenticate';

/** Outcomes that send the buyer to the bank's authentication page when the card is confirmed. */
export const asksForAuthentication = (outcome: CardOutcome): boolean =>
  outcome === 'requires_authentication' || outcome === 'always_authenticate';

/** Stripe's test cards by number; tests/fakes/stripe-simulator.ts gives its cards the same outcomes. */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  // Authenticated once at setup, then charged off-session without asking again.
  '4000002500003155': 'requires_authentication',
  // Asks for authentication on every payment, a subscription's first one included.
  '4000002760003184': 'always_authenticate',
  // Saves (attaches to the customer) fine, then every charge on it is declined.
  '4000000000000341': 'attaches_then_fails',
  // Every charge succeeds, then is disputed as fraudulent (sandbox-disputes.ts); evidence decides it.
  '4000000000000259': DISPUTED_CARD_OUTCOME,
};

export type ReadCard = { ok: true; outcome: CardOutcome; last4: string } | { ok: false; error: SandboxCardError };

/** Luhn's check digit, as card forms validate before anything is sent. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Validates a card as Stripe's form would, then names its test outcome. Any other number that
 * passes Luhn behaves like 4242 4242 4242 4242.
 */
export function readCard(card: SandboxCard, now = new Date()): ReadCard {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return { ok: false, error: CARD_ERRORS.invalid_number };
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12)
    return { ok: false, error: CARD_ERRORS.invalid_expiry_month };
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (card.expMonth - 1) < thisMonth) return { ok: false, error: CARD_ERRORS.expired };
  if (!/^\d{3,4}$/.test(card.cvc)) return { ok: false, error: CARD_ERRORS.invalid_cvc };
  return { ok: true, outcome: TEST_CARDS[digits] ?? 'succeeds', last4: digits.slice(-4) };
}
