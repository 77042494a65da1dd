import { parseDollars } from './dollars';

describe('parseDollars', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['$0.01', 1],
    [' 997.00 ', 99700],
  ])('reads %s as %d cents', (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(['', 'abc', '1.234', '-5', '1,000'])('refuses %j', (text) => {
    expect(parseDollars(text)).toBeNull();
  });
});
