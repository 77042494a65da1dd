import { parseMoney } from './parse-money';

describe('parseMoney', () => {
  it.each([
    ['12', 'USD', 1200],
    ['12.5', 'USD', 1250],
    ['$0.01', 'USD', 1],
    [' 997.00 ', 'usd', 99700],
    ['€89', 'EUR', 8900],
    ['1000', 'JPY', 1000],
    ['¥9700', 'JPY', 9700],
    ['5.12', 'KWD', 5120],
    ['KWD 0.005', 'KWD', 5],
  ])('reads %j of %s as %d minor units', (text, currency, minorUnits) => {
    expect(parseMoney(text, currency)).toBe(minorUnits);
  });

  it.each([
    ['', 'USD'],
    ['abc', 'USD'],
    ['1.234', 'USD'],
    ['-5', 'USD'],
    ['1,000', 'USD'],
    ['12.5', 'JPY'],
    ['1.', 'USD'],
    ['1.2345', 'KWD'],
  ])('refuses %j of %s', (text, currency) => {
    expect(parseMoney(text, currency)).toBeNull();
  });
});
