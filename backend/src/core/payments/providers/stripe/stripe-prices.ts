import type Stripe from 'stripe';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, PLANS, type Plan } from '@contracts/plans';
import type { GatewayBump, GatewayOrder } from '../../payment-gateway';

type BillingInterval = 'month' | 'year';

/** How often a plan's Price bills: a subscription by its interval; instalments monthly. */
export const billingInterval = (plan: Pick<Plan, 'interval'>): BillingInterval => plan.interval ?? 'month';

/** Stripe Price lookup key of a plan's recurring Price, free of any brand, e.g. plan-standard-monthly. */
export const priceLookupKey = (plan: Pick<Plan, 'id' | 'interval'>): string => `plan-${plan.id}-${billingInterval(plan)}ly`;

/**
 * The key the monthly Prices had before keys were neutral (`clear-standard-monthly`): a Price
 * under it that charges the terms is still used, so an upgraded deployment (and an older instance
 * still running beside it in a rolling upgrade) charges the same Price and makes no second one.
 */
const legacyLookupKey = (plan: Pick<Plan, 'id' | 'interval'>): string | null =>
  billingInterval(plan) === 'month' ? `clear-${plan.id}-monthly` : null;

/** What a plan's recurring Price charges: its lookup key, amount, currency, interval and the Product's name. */
export interface PriceTerms {
  lookupKey: string;
  /** An older key whose Price is still charged while its terms hold; null when there is none. */
  legacyLookupKey: string | null;
  amountCents: number;
  currency: string;
  interval: BillingInterval;
  name: string;
}

const termsOf = (plan: Plan, amountCents: number, currency: string): PriceTerms => ({
  lookupKey: priceLookupKey(plan),
  legacyLookupKey: legacyLookupKey(plan),
  amountCents,
  currency: currency.toLowerCase(),
  interval: billingInterval(plan),
  name: plan.name,
});

/** The plans billed by a recurring Price, in `currency`: subscriptions, and instalment plans (a schedule of the same Price). */
export function catalogueRecurringPrices(currency: string = CURRENCY): PriceTerms[] {
  return PLANS.filter((plan) => plan.kind === 'subscription' || plan.instalments !== undefined).map((plan) =>
    termsOf(plan, toMinorUnits(plan.amount, currency), currency),
  );
}

/** Whether a Price charges exactly these terms: amount, currency, once per interval. */
function chargesTerms(price: Stripe.Price, terms: PriceTerms): boolean {
  return (
    price.unit_amount === terms.amountCents &&
    price.currency.toLowerCase() === terms.currency.toLowerCase() &&
    price.recurring?.interval === terms.interval &&
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
 * The Price under the terms' lookup key (or its legacy key), found or created once (the key makes
 * concurrent creations one). A Price under the key whose amount, currency or interval differs
 * (edited in the dashboard, or left from an older price list) is never charged: Stripe cannot
 * change a Price's amount, so a new Price with these terms takes the lookup key over
 * (`transfer_lookup_key`).
 */
export async function settlePrice(stripe: Stripe, terms: PriceTerms): Promise<SettledPrice> {
  const keys = terms.legacyLookupKey ? [terms.lookupKey, terms.legacyLookupKey] : [terms.lookupKey];
  const found = await stripe.prices.list({ lookup_keys: keys, active: true, limit: keys.length });
  const existing = found.data.find((p) => p.lookup_key !== terms.legacyLookupKey);
  const legacy = terms.legacyLookupKey ? found.data.find((p) => p.lookup_key === terms.legacyLookupKey) : undefined;
  const usable = [existing, legacy].find((p) => p && chargesTerms(p, terms));
  if (usable) return { price: usable, created: false, replaced: null };
  const price = await stripe.prices.create(
    {
      currency: terms.currency,
      unit_amount: terms.amountCents,
      recurring: { interval: terms.interval },
      lookup_key: terms.lookupKey,
      ...(existing && { transfer_lookup_key: true }),
      product_data: { name: terms.name },
    },
    { idempotencyKey: `price:${terms.lookupKey}:${terms.amountCents}${existing ? `:replaces:${existing.id}` : ''}` },
  );
  return { price, created: true, replaced: existing ?? legacy ?? null };
}

/** The order's plan's recurring Price at the order's full amount (see settlePrice). */
export async function recurringPriceFor(stripe: Stripe, order: GatewayOrder): Promise<Stripe.Price> {
  return (await settlePrice(stripe, termsOf(order.plan, order.amountCents, order.currency))).price;
}

/** Stripe Price lookup key of an add-on's one-time Price (an order bump on a subscription's first invoice), e.g. addon-workbook. */
const addOnLookupKey = (planId: string): string => `addon-${planId}`;

/**
 * The one-time Price an order bump is charged with on a subscription's first invoice (Stripe's
 * add_invoice_items take a Price or a Product, not a bare amount): found under its lookup key
 * while it charges the amount and currency, else created, taking the key over as settlePrice does.
 */
export async function addOnPriceFor(stripe: Stripe, bump: GatewayBump, currency: string): Promise<Stripe.Price> {
  const lookupKey = addOnLookupKey(bump.planId);
  const [existing] = (await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data;
  if (existing && existing.unit_amount === bump.amountCents && existing.currency.toLowerCase() === currency.toLowerCase() && !existing.recurring) {
    return existing;
  }
  return stripe.prices.create(
    {
      currency: currency.toLowerCase(),
      unit_amount: bump.amountCents,
      lookup_key: lookupKey,
      ...(existing && { transfer_lookup_key: true }),
      product_data: { name: bump.name },
    },
    { idempotencyKey: `price:${lookupKey}:${currency.toLowerCase()}:${bump.amountCents}${existing ? `:replaces:${existing.id}` : ''}` },
  );
}
