import type Stripe from 'stripe';
import type { GatewayOrder } from '../../payment-gateway';

/** Stripe Price lookup key of a subscription plan, e.g. clear-standard-monthly. */
export const priceLookupKey = (plan: { id: string }): string => `clear-${plan.id}-monthly`;

/** Whether a Price charges exactly the catalogue's terms: amount, currency, once a month. */
function chargesCatalogueTerms(price: Stripe.Price, order: GatewayOrder): boolean {
  return (
    price.unit_amount === order.amountCents &&
    price.currency.toLowerCase() === order.currency.toLowerCase() &&
    price.recurring?.interval === 'month' &&
    (price.recurring.interval_count ?? 1) === 1
  );
}

/**
 * The plan's monthly Price, found by lookup key or created once (the key makes concurrent
 * creations one). A Price under the key whose amount, currency or interval differs from the
 * catalogue (edited in the dashboard, or left from an older price list) is never charged: a new
 * Price with the catalogue's terms takes the lookup key over (`transfer_lookup_key`).
 */
export async function monthlyPriceFor(stripe: Stripe, order: GatewayOrder): Promise<Stripe.Price> {
  const lookupKey = priceLookupKey(order.plan);
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  const existing = found.data[0];
  if (existing && chargesCatalogueTerms(existing, order)) return existing;
  return stripe.prices.create(
    {
      currency: order.currency,
      unit_amount: order.amountCents,
      recurring: { interval: 'month' },
      lookup_key: lookupKey,
      ...(existing && { transfer_lookup_key: true }),
      product_data: { name: order.plan.name },
    },
    { idempotencyKey: `price:${lookupKey}:${order.amountCents}${existing ? `:replaces:${existing.id}` : ''}` },
  );
}
