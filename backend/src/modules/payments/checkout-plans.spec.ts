import { BadRequestException } from '@nestjs/common';
import { formatPrice } from '@contracts/money';
import { CURRENCY, PLANS, planOf, OFFERS, type Plan } from '@contracts/plans';
import { assertSamePlan, planByDisplayName, subscriptionPlanById } from './checkout-plans';

/** Plans and prices from the site folder, so a seller's rename or price change keeps these exact checks green. */
const STANDARD = OFFERS.default;
const PREMIUM = planOf('premium');
const FULL_PAYMENT = planOf('full-payment');
const BLACKCARD = planOf('blackcard-vip');
const SIX_MONTH = planOf('6-month');
/** The order bump's add-on (site.json offers.bump): sold only with another plan. */
const ADD_ON = OFFERS.bump as Plan;
/** A price as the API's messages state it ('$997'). */
const price = (amount: number) => formatPrice(amount, CURRENCY);
const namesOf = (kind: string) =>
  PLANS.filter((p) => p.kind === kind && p !== ADD_ON)
    .map((p) => `"${p.name}"`)
    .join(', ');

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequestException);
    return (err as Error).message;
  }
  throw new Error('expected a 400');
};

describe('checkout plan checks', () => {
  it('finds a one-time plan by its display name and price', () => {
    expect(planByDisplayName(FULL_PAYMENT.name, FULL_PAYMENT.amount, 'one-time')).toBe(FULL_PAYMENT);
    expect(planByDisplayName(BLACKCARD.name, BLACKCARD.amount, 'one-time')).toBe(BLACKCARD);
  });

  it('refuses a price that is not the catalogue price', () => {
    expect(message(() => planByDisplayName(FULL_PAYMENT.name, 1, 'one-time'))).toBe(
      `The amount ${price(1)} does not match the price of "${FULL_PAYMENT.name}", which is ${price(FULL_PAYMENT.amount)}.`,
    );
    const twoMonth = planOf('2-month');
    expect(message(() => planByDisplayName(twoMonth.name, twoMonth.amount - 0.01, 'one-time'))).toMatch(/does not match/);
  });

  it('refuses unknown names and the wrong payment path', () => {
    expect(message(() => planByDisplayName('Cheap Plan', 1, 'one-time'))).toMatch(/^Unknown plan "Cheap Plan"/);
    expect(message(() => planByDisplayName(STANDARD.name, STANDARD.amount, 'one-time'))).toMatch(/is a subscription/);
    expect(message(() => subscriptionPlanById('full-payment'))).toMatch(/is a one-time payment/);
    expect(message(() => subscriptionPlanById('nope'))).toBe('Unknown plan "nope".');
  });

  it('defaults the setup intent to the default plan and accepts premium', () => {
    expect(subscriptionPlanById(undefined)).toBe(OFFERS.default);
    expect(subscriptionPlanById('premium')).toBe(PREMIUM);
  });

  it('holds confirm-subscription to the order plan', () => {
    expect(() => assertSamePlan(STANDARD, STANDARD.name, STANDARD.amount)).not.toThrow();
    expect(message(() => assertSamePlan(PREMIUM, STANDARD.name, STANDARD.amount))).toMatch(/does not match this checkout/);
    expect(message(() => assertSamePlan(PREMIUM, PREMIUM.name, STANDARD.amount))).toContain(`which is ${price(PREMIUM.amount)}.`);
  });
});

describe('checkout plan checks, message by message', () => {
  it('names the plans of the requested payment path when the name is unknown', () => {
    // Each list holds its own path's plans only.
    expect(namesOf('one-time')).toContain(`"${FULL_PAYMENT.name}"`);
    expect(namesOf('one-time')).not.toContain(`"${STANDARD.name}"`);
    expect(namesOf('subscription')).toContain(`"${PREMIUM.name}"`);
    expect(message(() => planByDisplayName('Cheap Plan', 1, 'one-time'))).toBe(
      `Unknown plan "Cheap Plan". Choose one of: ${namesOf('one-time')}.`,
    );
    expect(message(() => planByDisplayName('Gold', STANDARD.amount, 'subscription'))).toBe(
      `Unknown plan "Gold". Choose one of: ${namesOf('subscription')}.`,
    );
  });

  it('finds every plan but the add-on by its display name on its own payment path, ignoring surrounding spaces', () => {
    for (const plan of PLANS.filter((p) => p !== ADD_ON)) {
      expect(planByDisplayName(`  ${plan.name}\n`, plan.amount, plan.kind)).toBe(plan);
    }
  });

  it('says which endpoint each payment path belongs to', () => {
    expect(message(() => planByDisplayName(PREMIUM.name, PREMIUM.amount, 'one-time'))).toBe(
      `"${PREMIUM.name}" is a subscription: start it with /api/create-setup-intent.`,
    );
    expect(message(() => planByDisplayName(SIX_MONTH.name, SIX_MONTH.amount, 'subscription'))).toBe(
      `"${SIX_MONTH.name}" is a one-time payment: pay it with /api/create-payment-intent.`,
    );
    expect(message(() => subscriptionPlanById('blackcard-vip'))).toBe(
      `"${BLACKCARD.name}" is a one-time payment: pay it with /api/create-payment-intent.`,
    );
  });

  it('refuses the add-on on its own, by name or id, as it refuses an unknown plan, naming what it does sell', () => {
    expect(namesOf('one-time')).not.toContain(`"${ADD_ON.name}"`);
    expect(message(() => planByDisplayName(ADD_ON.name, ADD_ON.amount, 'one-time'))).toBe(
      `"${ADD_ON.name}" is only sold as an add-on to another plan. Choose one of: ${namesOf('one-time')}.`,
    );
    expect(message(() => subscriptionPlanById(ADD_ON.id))).toBe(
      `"${ADD_ON.name}" is only sold as an add-on to another plan. Choose one of: ${namesOf('subscription')}.`,
    );
  });

  it('checks the payment path before the price', () => {
    expect(message(() => planByDisplayName(STANDARD.name, 1, 'one-time'))).toMatch(/is a subscription/);
  });

  it('takes the setup intent plan id as it is: no trimming, no other case', () => {
    expect(subscriptionPlanById(STANDARD.id)).toBe(OFFERS.default);
    expect(message(() => subscriptionPlanById(' premium'))).toBe('Unknown plan " premium".');
    expect(message(() => subscriptionPlanById('Premium'))).toBe('Unknown plan "Premium".');
    expect(message(() => subscriptionPlanById(''))).toBe('Unknown plan "".');
  });

  it('holds confirm-subscription to the order plan, ignoring spaces around the name', () => {
    expect(() => assertSamePlan(PREMIUM, ` ${PREMIUM.name}\t`, PREMIUM.amount)).not.toThrow();
    expect(message(() => assertSamePlan(PREMIUM, STANDARD.name, PREMIUM.amount))).toBe(
      `The plan "${STANDARD.name}" does not match this checkout, which is for "${PREMIUM.name}".`,
    );
    expect(message(() => assertSamePlan(STANDARD, STANDARD.name, PREMIUM.amount))).toBe(
      `The amount ${price(PREMIUM.amount)} does not match the price of "${STANDARD.name}", which is ${price(STANDARD.amount)}.`,
    );
  });
});
