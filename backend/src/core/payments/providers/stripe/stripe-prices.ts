import type Stripe from 'stripe';
import { toMinorUnits } from '@contracts/money';
import { PLANS, type Plan } from '@contracts/plans';
import type { GatewayOrder } from '../../payment-gateway';

/** Stripe Price lookup key of a subscription plan, e.g. clear-standard-monthly. */
export const priceLookupKey = (plan: { id: string }): string => `clear-${plan.id}-monthly`;

/** What a plan's monthly Price charges: its lookup key, amount, currency and the Product's name. */
export interface MonthlyPriceTerms {
  lookupKey: string;
  amountCents: number;
  currency: string;
  name: string;
}

/** The plans billed by a monthly Price, in `currency`: subscriptions, and instalment plans (a schedule of the same Price). */
export function catalogueMonthlyPrices(currency: string): MonthlyPriceTerms[] {
  return Object.values(PLANS)
    .filter((plan: Plan) => plan.kind === 'subscription' || plan.instalments !== undefined)
    .map((plan) => ({
      lookupKey: priceLookupKey(plan),
      amountCents: toMinorUnits(plan.amount, currency),
      currency: currency.toLowerCase(),
      name: plan.name,
    }));
}

/** Whether a Price charges exactly these terms: amount, currency, once a month. */
export function chargesTerms(price: Stripe.Price, terms: MonthlyPriceTerms): boolean {
  return (
    price.unit_amount === terms.amountCents &&
    price.currency.toLowerCase() === terms.currency.toLowerCase() &&
    price.recurring?.interval === 'month' &&
    (price.recurring.interval_count ?? 1) === 1
  );
}

/** The Price that charges the terms, and whether it was made now, replacing the one that held the key. */
export interface SettledPrice {
  price: Stripe.Price;
  created: boolean;
  replaced: Stripe.Price | null;
}

/**
 * The Price under the terms' lookup key, found or created once (the key makes concurrent
 * creations one). A Price under the key whose amount, currency or interval differs (edited in the
 * dashboard, or left from an older price list) is never charged: Stripe cannot change a Price's
 * amount, so a new Price with these terms takes the lookup key over (`transfer_lookup_key`).
 */
export async function settleMonthlyPrice(stripe: Stripe, terms: MonthlyPriceTerms): Promise<SettledPrice> {
  const found = await stripe.prices.list({ lookup_keys: [terms.lookupKey], active: true, limit: 1 });
  const existing = found.data[0];
  if (existing && chargesTerms(existing, terms)) return { price: existing, created: false, replaced: null };
  const price = await stripe.prices.create(
    {
      currency: terms.currency,
      unit_amount: terms.amountCents,
      recurring: { interval: 'month' },
      lookup_key: terms.lookupKey,
      ...(existing && { transfer_lookup_key: true }),
      product_data: { name: terms.name },
    },
    { idempotencyKey: `price:${terms.lookupKey}:${terms.amountCents}${existing ? `:replaces:${existing.id}` : ''}` },
  );
  return { price, created: true, replaced: existing ?? null };
}

/** The order's plan's monthly Price at the order's full amount (see settleMonthlyPrice). */
export async function monthlyPriceFor(stripe: Stripe, order: GatewayOrder): Promise<Stripe.Price> {
  const terms = { lookupKey: priceLookupKey(order.plan), amountCents: order.amountCents, currency: order.currency, name: order.plan.name };
  return (await settleMonthlyPrice(stripe, terms)).price;
}
