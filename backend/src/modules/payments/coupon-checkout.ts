import { BadRequestException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CouponQuote } from '@contracts/coupons';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, findPlan, type Plan } from '@contracts/plans';
import { normalizeCouponCode, priceWithCoupon, USED_UP_MESSAGE } from '@core/coupons/coupon-pricing';
import { PaymentsConfig } from '@core/config/config-sections';
import { CouponRepository, type CountedCoupon } from '@core/database/repositories/coupon.repository';
import type { NewOrder, OrderRow } from '@core/database/repositories/order.repository';
import { OrderRepository } from '@core/database/repositories/order.repository';
import type { GatewayDiscount } from '@core/payments/payment-gateway';

/** A coupon checkout may use for a plan: its row and the amount the order is charged. */
export interface PricedCoupon {
  coupon: CountedCoupon;
  totalCents: number;
}

/** Coupons at checkout: the quote the summary shows, and the redemption counted with the order. */
@Injectable()
export class CouponCheckout {
  constructor(
    private readonly coupons: CouponRepository,
    private readonly orders: OrderRepository,
    private readonly dataSource: DataSource,
    private readonly config: PaymentsConfig,
  ) {}

  /** What the plan costs with the code today; an unusable code answers valid false, its message and the full price. */
  async quote(rawCode: string, planId: string): Promise<CouponQuote> {
    const plan = findPlan(planId) ?? null;
    if (!plan) throw new BadRequestException('plan must be one of the catalogue plan ids');
    const code = normalizeCouponCode(rawCode);
    const coupon = code ? await this.coupons.findByCode(code, this.config.COUPON_HOLD_MINUTES) : null;
    const price = priceWithCoupon(coupon, plan, new Date(), CURRENCY);
    if (!price.valid) {
      const full = price.fullCents;
      return {
        code,
        plan: plan.id,
        valid: false,
        message: price.message,
        fullCents: full,
        discountCents: 0,
        totalCents: full,
        durationMonths: null,
      };
    }
    const { fullCents, discountCents, totalCents, durationMonths } = price;
    return { code, plan: plan.id, valid: true, message: null, fullCents, discountCents, totalCents, durationMonths };
  }

  /** The coupon a checkout asks for, priced for its plan; a 400 with the reason when it cannot be used. */
  async price(rawCode: string, plan: Plan): Promise<PricedCoupon> {
    const coupon = await this.coupons.findByCode(normalizeCouponCode(rawCode), this.config.COUPON_HOLD_MINUTES);
    const price = priceWithCoupon(coupon, plan, new Date(), CURRENCY);
    if (!price.valid || !coupon) throw new BadRequestException(price.valid ? 'This coupon code is not valid.' : price.message);
    return { coupon, totalCents: price.totalCents };
  }

  /**
   * The order, created together with its coupon's redemption: the order is the redemption, made
   * only while the coupon is under its cap (CouponRepository.redeem), so concurrent checkouts never
   * redeem more than it allows; the one that finds it used up gets a 400 and no order. Unpaid, it
   * holds the redemption for COUPON_HOLD_MINUTES; an intent paid later is still honoured at the
   * discounted price it was made with.
   */
  createWithRedemption(order: NewOrder, priced: PricedCoupon): Promise<OrderRow> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.coupons.redeem(manager, priced.coupon.id, this.config.COUPON_HOLD_MINUTES))) throw new BadRequestException(USED_UP_MESSAGE);
      return this.orders.create(
        // The coupon discounts the plan; an add-on ticked with it is charged in full.
        { ...order, amountCents: priced.totalCents + (order.bumpAmountCents ?? 0), couponId: priced.coupon.id, couponCode: priced.coupon.code },
        manager,
      );
    });
  }

  /** The discount a coupon'd order is charged with, as the gateway applies it; null for an order without one. */
  async discountOf(order: OrderRow, plan: Plan): Promise<GatewayDiscount | null> {
    if (!order.coupon_id) return null;
    const coupon = await this.coupons.findById(order.coupon_id);
    if (!coupon) return null;
    return {
      couponId: coupon.id,
      code: coupon.code,
      percentOff: coupon.percent_off,
      amountOffCents: coupon.amount_off_cents,
      durationMonths: plan.kind === 'subscription' ? coupon.duration_months : null,
      fullAmountCents: toMinorUnits(plan.amount, CURRENCY),
    };
  }
}
