import { PLANS, resolvePlan } from './plans';

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
