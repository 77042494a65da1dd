import { toMinorUnits } from '@contracts/money';
import { planOf, OFFERS } from '@contracts/plans';
import { type CouponTerms, discountCents, MIN_CHARGE_CENTS, normalizeCouponCode, priceWithCoupon } from './coupon-pricing';

const NOW = new Date('2026-06-01T12:00:00Z');
const coupon = (terms: Partial<CouponTerms> = {}): CouponTerms => ({
  code: 'TEST',
  kind: 'percent',
  percent_off: 10,
  amount_off_cents: null,
  plan_ids: ['standard', 'full-payment', 'premium', 'blackcard-vip'],
  duration_months: null,
  expires_at: null,
  max_redemptions: null,
  redeemed: 0,
  active: true,
  ...terms,
});

describe('discountCents', () => {
  it('rounds a percentage half up to the cent', () => {
    expect(discountCents(9700, { kind: 'percent', percent_off: 15, amount_off_cents: null })).toBe(1455);
    expect(discountCents(99700, { kind: 'percent', percent_off: 15, amount_off_cents: null })).toBe(14955);
    // 33% of $0.99 is 32.67 cents: 33; 50% of $0.01 is half a cent: 1.
    expect(discountCents(99, { kind: 'percent', percent_off: 33, amount_off_cents: null })).toBe(33);
    expect(discountCents(1, { kind: 'percent', percent_off: 50, amount_off_cents: null })).toBe(1);
    expect(discountCents(3, { kind: 'percent', percent_off: 10, amount_off_cents: null })).toBe(0);
  });

  it('takes a fixed amount off, never more than the price', () => {
    expect(discountCents(9700, { kind: 'fixed', percent_off: null, amount_off_cents: 2000 })).toBe(2000);
    expect(discountCents(9700, { kind: 'fixed', percent_off: null, amount_off_cents: 20000 })).toBe(9700);
  });
});

describe('priceWithCoupon', () => {
  // Prices and names come from the site folder, so a seller's price change or rename keeps these green.
  const standard = OFFERS.default;
  const fullPayment = planOf('full-payment');
  const standardCents = toMinorUnits(standard.amount, 'USD');

  it('prices a plan with a valid code, with the months only for subscriptions', () => {
    expect(priceWithCoupon(coupon({ duration_months: 3 }), OFFERS.default, NOW, 'USD')).toEqual({
      valid: true,
      fullCents: standardCents,
      discountCents: Math.round(standardCents / 10),
      totalCents: standardCents - Math.round(standardCents / 10),
      durationMonths: 3,
    });
    const fullPaymentCents = toMinorUnits(fullPayment.amount, 'USD');
    expect(priceWithCoupon(coupon({ duration_months: 3 }), fullPayment, NOW, 'USD')).toMatchObject({
      totalCents: fullPaymentCents - Math.round(fullPaymentCents / 10),
      durationMonths: null,
    });
  });

  it('refuses an unknown, inactive, expired, used-up or other-plan code with a readable message and the full price', () => {
    const refusal = (c: CouponTerms | null, plan = OFFERS.default) => priceWithCoupon(c, plan, NOW, 'USD');
    expect(refusal(null)).toEqual({ valid: false, message: 'This coupon code is not valid.', fullCents: standardCents });
    expect(refusal(coupon({ active: false }))).toMatchObject({ message: 'This coupon code is no longer active.' });
    expect(refusal(coupon({ expires_at: new Date('2026-06-01T12:00:00Z') }))).toMatchObject({ message: 'This coupon code has expired.' });
    expect(refusal(coupon({ expires_at: new Date('2026-06-01T12:00:01Z') }))).toMatchObject({ valid: true });
    expect(refusal(coupon({ max_redemptions: 3, redeemed: 3 }))).toMatchObject({ message: 'This coupon code has been used up.' });
    expect(refusal(coupon({ max_redemptions: 3, redeemed: 2 }))).toMatchObject({ valid: true });
    expect(refusal(coupon({ plan_ids: ['premium'] }))).toMatchObject({
      message: `This coupon code does not apply to the ${standard.name} plan.`,
    });
    // Instalment plans take no coupon even if listed.
    expect(refusal(coupon({ plan_ids: ['6-month'] }), planOf('6-month'))).toMatchObject({ valid: false });
  });

  it(`never takes a price below the $${MIN_CHARGE_CENTS / 100} minimum charge`, () => {
    expect(priceWithCoupon(coupon({ percent_off: 100 }), fullPayment, NOW, 'USD')).toMatchObject({ valid: false });
    const offBelowMinimum = standardCents - MIN_CHARGE_CENTS + 1;
    expect(
      priceWithCoupon(coupon({ kind: 'fixed', percent_off: null, amount_off_cents: offBelowMinimum }), standard, NOW, 'USD'),
    ).toMatchObject({
      valid: false,
      fullCents: standardCents,
    });
    const offToMinimum = standardCents - MIN_CHARGE_CENTS;
    expect(
      priceWithCoupon(coupon({ kind: 'fixed', percent_off: null, amount_off_cents: offToMinimum }), standard, NOW, 'USD'),
    ).toMatchObject({
      valid: true,
      totalCents: MIN_CHARGE_CENTS,
    });
  });

  it("prices in the currency's minor units and names the minimum in it", () => {
    const yen = toMinorUnits(standard.amount, 'JPY');
    expect(priceWithCoupon(coupon({}), standard, NOW, 'JPY')).toMatchObject({
      fullCents: yen,
      discountCents: Math.round(yen / 10),
      totalCents: yen - Math.round(yen / 10),
    });
    expect(priceWithCoupon(coupon({ percent_off: 100 }), standard, NOW, 'EUR')).toMatchObject({
      message: `This coupon code would take the ${standard.name} plan below the €0.50 minimum charge, so it cannot be used for it.`,
      fullCents: toMinorUnits(standard.amount, 'EUR'),
    });
  });

  it('reads codes upper case without surrounding spaces', () => {
    expect(normalizeCouponCode('  spring20 ')).toBe('SPRING20');
  });
});
