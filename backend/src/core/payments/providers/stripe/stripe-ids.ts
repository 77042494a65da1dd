import type { PaymentObjectKind } from '../../payment-gateway';

/** Stripe's ids: a prefix naming the object, then letters or digits (the sandbox's have 24; Stripe's are longer). */
const ID_KINDS: ReadonlyArray<[RegExp, PaymentObjectKind]> = [
  [/^pi_[0-9A-Za-z]{14,255}$/, 'charge'],
  [/^seti_[0-9A-Za-z]{14,255}$/, 'setup'],
  [/^sub_[0-9A-Za-z]{14,255}$/, 'subscription'],
];

/** The object a Stripe-shaped id names (payment intent: charge, setup intent: setup), or null. */
export function stripeIdKind(id: string): PaymentObjectKind | null {
  return ID_KINDS.find(([shape]) => shape.test(id))?.[1] ?? null;
}
