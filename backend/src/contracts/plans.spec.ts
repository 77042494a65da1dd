import { CURRENCY, DEFAULT_PLAN_ID, isPlanId, PLAN_IDS, PlanId, PLANS, resolvePlan } from './plans';

describe('plan catalogue', () => {
  it('holds the spec amounts, names and payment kinds', () => {
    expect(Object.values(PLANS).map((p) => [p.id, p.amount, p.name, p.kind])).toEqual([
      ['standard', 97, 'Standard Access', 'subscription'],
      ['6-month', 250, '6-Month Plan', 'one-time'],
      ['2-month', 550, '2-Month Plan', 'one-time'],
      ['full-payment', 997, 'Full Payment', 'one-time'],
      ['payment-plan', 37, '3-Payment Plan', 'one-time'],
      ['premium', 297, 'Elite Access', 'subscription'],
      ['blackcard-vip', 997, 'Black Card APEX', 'one-time'],
    ]);
  });

  it.each([undefined, null, '', 'gold', 'STANDARD', 'constructor'])('falls back to standard for %p', (id) => {
    expect(resolvePlan(id as string).id).toBe('standard');
  });

  it('resolves a known id', () => {
    expect(resolvePlan('blackcard-vip').displayText).toBe('$997 one-time');
  });
});

describe('plan catalogue, field by field', () => {
  it('lists the seven plan ids in catalogue order, charges US dollars and defaults to standard', () => {
    expect(PLAN_IDS).toEqual(['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip']);
    expect(Object.keys(PLANS)).toEqual(PLAN_IDS);
    expect(CURRENCY).toBe('USD');
    expect(DEFAULT_PLAN_ID).toBe('standard');
  });

  it('holds every field of every plan as the spec words it', () => {
    expect(PLANS).toEqual({
      standard: { id: 'standard', amount: 97, name: 'Standard Access', displayText: '$97/month', kind: 'subscription', interval: 'month' },
      '6-month': {
        id: '6-month',
        amount: 250,
        name: '6-Month Plan',
        displayText: '$250/month for 6 months',
        kind: 'one-time',
        instalments: 6,
      },
      '2-month': {
        id: '2-month',
        amount: 550,
        name: '2-Month Plan',
        displayText: '$550/month for 2 months',
        kind: 'one-time',
        instalments: 2,
      },
      'full-payment': { id: 'full-payment', amount: 997, name: 'Full Payment', displayText: '$997 one-time', kind: 'one-time' },
      'payment-plan': { id: 'payment-plan', amount: 37, name: '3-Payment Plan', displayText: '3 x $37', kind: 'one-time', instalments: 3 },
      premium: { id: 'premium', amount: 297, name: 'Elite Access', displayText: '$297/month', kind: 'subscription', interval: 'month' },
      'blackcard-vip': { id: 'blackcard-vip', amount: 997, name: 'Black Card APEX', displayText: '$997 one-time', kind: 'one-time' },
    });
  });

  it.each(['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip'])(
    'knows %s as a plan id and resolves it to itself',
    (id) => {
      expect(isPlanId(id)).toBe(true);
      expect(resolvePlan(id)).toBe(PLANS[id as PlanId]);
    },
  );

  it.each([undefined, null, '', ' standard', 'Standard', 'gold', 'toString', 'constructor', 97, {}, ['standard']])(
    'does not take %p for a plan id',
    (value) => {
      expect(isPlanId(value)).toBe(false);
    },
  );

  it('falls back to the standard plan object itself', () => {
    expect(resolvePlan('gold')).toBe(PLANS.standard);
    expect(resolvePlan(undefined)).toBe(PLANS.standard);
  });
});
