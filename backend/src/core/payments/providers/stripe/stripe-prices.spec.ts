import { catalogueMonthlyPrices } from './stripe-prices';

describe('catalogueMonthlyPrices', () => {
  it("prices each monthly plan in the currency's minor units: cents for USD, whole yen for JPY", () => {
    const standard = (currency: string) => catalogueMonthlyPrices(currency).find((terms) => terms.lookupKey === 'clear-standard-monthly');
    expect(standard('USD')).toEqual({ lookupKey: 'clear-standard-monthly', amountCents: 9700, currency: 'usd', name: 'Standard Access' });
    expect(standard('JPY')).toMatchObject({ amountCents: 97, currency: 'jpy' });
    expect(standard('KWD')).toMatchObject({ amountCents: 97_000, currency: 'kwd' });
  });
});
