import type Stripe from 'stripe';
import type { GatewayDiscount, RenewalDiscount } from '../../payment-gateway';

/** The Stripe coupon made from one of ours: its id is derived from our coupon's, so it is found again, never made twice. */
const stripeCouponId = (discount: Pick<GatewayDiscount, 'couponId'>): string => `coupon-${discount.couponId}`;

/** The id the Stripe coupons had before ids were free of the brand: one made then is still used, never made again. */
const legacyStripeCouponId = (discount: Pick<GatewayDiscount, 'couponId'>): string => `clear-${discount.couponId}`;

const codeOf = (err: unknown): string | undefined => (err as { code?: string }).code;

/** How long a monthly subscription keeps the discount: Stripe's once, repeating (N months) or forever. */
function durationOf(
  discount: Pick<GatewayDiscount, 'durationMonths'>,
): Pick<Stripe.CouponCreateParams, 'duration' | 'duration_in_months'> {
  const months = discount.durationMonths;
  if (months === null) return { duration: 'forever' };
  return months === 1 ? { duration: 'once' } : { duration: 'repeating', duration_in_months: months };
}

/** Our coupon's Stripe coupon, created the first time a subscription uses it (an existing one is kept as it is). */
async function couponFor(stripe: Stripe, discount: GatewayDiscount, currency: string): Promise<string> {
  const id = stripeCouponId(discount);
  for (const known of [id, legacyStripeCouponId(discount)]) {
    try {
      return (await stripe.coupons.retrieve(known)).id;
    } catch (err) {
      if (codeOf(err) !== 'resource_missing') throw err;
    }
  }
  try {
    const amount =
      discount.percentOff !== null ? { percent_off: discount.percentOff } : { amount_off: discount.amountOffCents ?? 0, currency };
    await stripe.coupons.create(
      { id, name: discount.code, ...amount, ...durationOf(discount) },
      { idempotencyKey: `coupon:${discount.couponId}` },
    );
  } catch (err) {
    // Made meanwhile by a concurrent checkout: the same coupon.
    if (codeOf(err) !== 'resource_already_exists') throw err;
  }
  return id;
}

/**
 * The Stripe promotion code carrying our code for our coupon, found by code or created once.
 * Redemptions are counted by us (the coupon's orders, CouponRepository.redeem) as the order is made, so it has no cap of its own.
 */
export async function promotionCodeFor(stripe: Stripe, discount: GatewayDiscount, currency: string): Promise<string> {
  const coupon = await couponFor(stripe, discount, currency);
  const found = await stripe.promotionCodes.list({ code: discount.code, coupon, active: true, limit: 1 });
  if (found.data[0]) return found.data[0].id;
  const created = await stripe.promotionCodes.create(
    { promotion: { type: 'coupon', coupon }, code: discount.code },
    { idempotencyKey: `promotion-code:${discount.couponId}` },
  );
  return created.id;
}

/** The Stripe coupon of our save offer: the same terms as our coupon, for one invoice (duration once), whatever its months. */
const saveOfferCouponId = (discount: Pick<RenewalDiscount, 'couponId'>): string => `save-offer-${discount.couponId}`;

/** Our save offer's once-only Stripe coupon, created the first time a member takes it. */
export async function saveOfferCouponFor(stripe: Stripe, discount: RenewalDiscount, currency: string): Promise<string> {
  const id = saveOfferCouponId(discount);
  try {
    return (await stripe.coupons.retrieve(id)).id;
  } catch (err) {
    if (codeOf(err) !== 'resource_missing') throw err;
  }
  try {
    const amount =
      discount.percentOff !== null ? { percent_off: discount.percentOff } : { amount_off: discount.amountOffCents ?? 0, currency };
    await stripe.coupons.create({ id, name: discount.code, ...amount, duration: 'once' }, { idempotencyKey: `coupon:${id}` });
  } catch (err) {
    if (codeOf(err) !== 'resource_already_exists') throw err;
  }
  return id;
}
