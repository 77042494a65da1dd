import { BadRequestException } from '@nestjs/common';
import { assertSamePlan, planByDisplayName, subscriptionPlanById } from './checkout-plans';
import { PLANS, planOf, OFFERS } from '@contracts/plans';

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
    expect(planByDisplayName('Full Payment', 997, 'one-time')).toBe(planOf('full-payment'));
    expect(planByDisplayName('Black Card APEX', 997, 'one-time')).toBe(planOf('blackcard-vip'));
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
    expect(subscriptionPlanById(undefined)).toBe(OFFERS.default);
    expect(subscriptionPlanById('premium')).toBe(planOf('premium'));
  });

  it('holds confirm-subscription to the order plan', () => {
    expect(() => assertSamePlan(OFFERS.default, 'Standard Access', 97)).not.toThrow();
    expect(message(() => assertSamePlan(planOf('premium'), 'Standard Access', 97))).toMatch(/does not match this checkout/);
    expect(message(() => assertSamePlan(planOf('premium'), 'Elite Access', 97))).toMatch(/which is \$297/);
  });
});

describe('checkout plan checks, message by message', () => {
  it('names the plans of the requested payment path when the name is unknown', () => {
    expect(message(() => planByDisplayName('Cheap Plan', 1, 'one-time'))).toBe(
      'Unknown plan "Cheap Plan". Choose one of: "6-Month Plan", "2-Month Plan", "Full Payment", "3-Payment Plan", "Black Card APEX", "CLEAR Method Workbook".',
    );
    expect(message(() => planByDisplayName('Gold', 97, 'subscription'))).toBe(
      'Unknown plan "Gold". Choose one of: "Standard Access", "Elite Access".',
    );
  });

  it('finds every plan by its display name on its own payment path, ignoring surrounding spaces', () => {
    for (const plan of PLANS) {
      expect(planByDisplayName(`  ${plan.name}\n`, plan.amount, plan.kind)).toBe(plan);
    }
  });

  it('says which endpoint each payment path belongs to', () => {
    expect(message(() => planByDisplayName('Elite Access', 297, 'one-time'))).toBe(
      '"Elite Access" is a subscription: start it with /api/create-setup-intent.',
    );
    expect(message(() => planByDisplayName('6-Month Plan', 250, 'subscription'))).toBe(
      '"6-Month Plan" is a one-time payment: pay it with /api/create-payment-intent.',
    );
    expect(message(() => subscriptionPlanById('blackcard-vip'))).toBe(
      '"Black Card APEX" is a one-time payment: pay it with /api/create-payment-intent.',
    );
  });

  it('checks the payment path before the price', () => {
    expect(message(() => planByDisplayName('Standard Access', 1, 'one-time'))).toMatch(/is a subscription/);
  });

  it('takes the setup intent plan id as it is: no trimming, no other case', () => {
    expect(subscriptionPlanById('standard')).toBe(OFFERS.default);
    expect(message(() => subscriptionPlanById(' premium'))).toBe('Unknown plan " premium".');
    expect(message(() => subscriptionPlanById('Premium'))).toBe('Unknown plan "Premium".');
    expect(message(() => subscriptionPlanById(''))).toBe('Unknown plan "".');
  });

  it('holds confirm-subscription to the order plan, ignoring spaces around the name', () => {
    expect(() => assertSamePlan(planOf('premium'), ' Elite Access\t', 297)).not.toThrow();
    expect(message(() => assertSamePlan(planOf('premium'), 'Standard Access', 297))).toBe(
      'The plan "Standard Access" does not match this checkout, which is for "Elite Access".',
    );
    expect(message(() => assertSamePlan(OFFERS.default, 'Standard Access', 297))).toBe(
      'The amount $297 does not match the price of "Standard Access", which is $97.',
    );
  });
});
