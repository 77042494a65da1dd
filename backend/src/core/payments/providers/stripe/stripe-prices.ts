import type Stripe from 'stripe';
import type { Plan } from '@contracts/plans';
import type { GatewayOrder } from '../../payment-gateway';

/** Stripe Price lookup key of a subscription plan, e.g. clear-standard-monthly. */
export const priceLookupKey = (plan: Plan): string => `clear-${plan.id}-monthly`;

/** The plan's monthly Price, found by lookup key or created once (the key makes concurrent creations one). */
export async function monthlyPriceFor(stripe: Stripe, order: GatewayOrder): Promise<Stripe.Price> {
  const lookupKey = priceLookupKey(order.plan);
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  if (found.data[0]) return found.data[0];
  return stripe.prices.create(
    {
      currency: order.currency,
      unit_amount: order.amountCents,
      recurring: { interval: 'month' },
      lookup_key: lookupKey,
      product_data: { name: order.plan.name },
    },
    { idempotencyKey: `price:${lookupKey}:${order.amountCents}` },
  );
}
