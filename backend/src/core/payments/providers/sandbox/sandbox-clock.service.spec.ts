import { renewalAmountCents } from './sandbox-clock.service';

describe('renewalAmountCents', () => {
  const row = { amount_cents: 4850, full_amount_cents: 9700, discounted_periods: 2 };

  it('charges the discounted amount while the months last (the first is period 0), then the full price', () => {
    expect(renewalAmountCents(row, 1)).toBe(4850);
    expect(renewalAmountCents(row, 2)).toBe(9700);
    expect(renewalAmountCents(row, 5)).toBe(9700);
  });

  it('keeps a forever coupon, and a subscription without one, at its amount', () => {
    expect(renewalAmountCents({ ...row, discounted_periods: null }, 12)).toBe(4850);
    expect(renewalAmountCents({ amount_cents: 9700, full_amount_cents: null, discounted_periods: null }, 3)).toBe(9700);
  });
});
