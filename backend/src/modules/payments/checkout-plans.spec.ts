import { BadRequestException } from '@nestjs/common';
import { assertSamePlan, planByDisplayName, subscriptionPlanById } from './checkout-plans';
import { PLANS } from '@contracts/plans';

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
    expect(planByDisplayName('Full Payment', 997, 'one-time')).toBe(PLANS['full-payment']);
    expect(planByDisplayName('Black Card APEX', 997, 'one-time')).toBe(PLANS['blackcard-vip']);
  });

  it('refuses a price that is not the catalogue price', () => {
    expect(message(() => planByDisplayName('Full Payment', 1, 'one-time'))).toBe(
      'The amount $1 does not match the price of "Full Payment", which is $997.',
    );
    expect(message(() => planByDisplayName('2-Month Plan', 549.99, 'one-time'))).toMatch(/does not match/);
  });

  it('refuses unknown names and the wrong payment path', () => {
    expect(message(() => planByDisplayName('Cheap Plan', 1, 'one-time'))).toMatch(/^Unknown plan "Cheap Plan"/);
    expect(message(() => planByDisplayName('Standard Access', 97, 'one-time'))).toMatch(/is a subscription/);
    expect(message(() => subscriptionPlanById('full-payment'))).toMatch(/is a one-time payment/);
    expect(message(() => subscriptionPlanById('nope'))).toBe('Unknown plan "nope".');
  });

  it('defaults the setup intent to standard and accepts premium', () => {
    expect(subscriptionPlanById(undefined)).toBe(PLANS.standard);
    expect(subscriptionPlanById('premium')).toBe(PLANS.premium);
  });

  it('holds confirm-subscription to the order plan', () => {
    expect(() => assertSamePlan(PLANS.standard, 'Standard Access', 97)).not.toThrow();
    expect(message(() => assertSamePlan(PLANS.premium, 'Standard Access', 97))).toMatch(/does not match this checkout/);
    expect(message(() => assertSamePlan(PLANS.premium, 'Elite Access', 97))).toMatch(/which is \$297/);
  });
});
