import { PLANS } from '@contracts/plans';
import { catalogueRecurringPrices } from './stripe-prices';

describe('catalogueRecurringPrices', () => {
  it("prices each recurring plan in the currency's minor units: cents for USD, whole yen for JPY", () => {
    const standard = PLANS.find((plan) => plan.id === 'standard')!;
    const termsIn = (currency: string) => catalogueRecurringPrices(currency).find((terms) => terms.name === standard.name);
    expect(termsIn('USD')).toMatchObject({ amountCents: standard.amount * 100, currency: 'usd', interval: 'month' });
    expect(termsIn('JPY')).toMatchObject({ amountCents: standard.amount, currency: 'jpy' });
    expect(termsIn('KWD')).toMatchObject({ amountCents: standard.amount * 1000, currency: 'kwd' });
  });
});
