import { formatMoney, formatPrice, minorUnitDigits, minorUnitsPerMajor, toMinorUnits } from './money';

// Stripe's presentment currencies and its zero- and three-decimal lists, as docs.stripe.com/currencies gives them.
const STRIPE = (
  'USD AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BWP BYN BZD CAD CDF ' +
  'CHF CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP GEL GIP GMD GNF GTQ GYD HKD HNL HTG HUF ' +
  'IDR ILS INR ISK JMD JOD JPY KES KGS KHR KMF KRW KWD KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP ' +
  'MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD ' +
  'SCR SEK SGD SHP SLE SOS SRD STD SZL THB TJS TND TOP TRY TTD TWD TZS UAH UGX UYU UZS VND VUV WST XAF XCD XCG ' +
  'XOF XPF YER ZAR ZMW'
).split(' ');
const ZERO_DECIMAL = 'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' ');
const THREE_DECIMAL = 'BHD JOD KWD OMR TND'.split(' ');

// Zero, one minor unit, odd cents, whole amounts, thousands, millions, halves that round, and negatives.
const AMOUNTS = [0, 1, 5, 49, 50, 99, 100, 101, 150, 250, 999, 1000, 4850, 9700, 99_999, 123_456, 1_234_567, 100_000_000];
const SIGNED = [...AMOUNTS, ...AMOUNTS.filter((a) => a > 0).map((a) => -a)];

/** Node's full-ICU en-US formatting of the same amount, in whole units of the currency. */
function viaIntl(minorUnits: number, currency: string, decimals: 'unless-whole' | 'always'): string {
  const major = minorUnits / 10 ** (ZERO_DECIMAL.includes(currency) ? 0 : THREE_DECIMAL.includes(currency) ? 3 : 2);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    ...(decimals === 'unless-whole' ? { trailingZeroDisplay: 'stripIfInteger' } : {}),
  }).format(major);
}

describe('formatMoney', () => {
  it.each([
    [9700, 'USD', '$97'],
    [4850, 'USD', '$48.50'],
    [8900, 'EUR', '€89'],
    [1000, 'GBP', '£10'],
    [1000, 'JPY', '¥1,000'],
    [9700, 'JPY', '¥9,700'],
    [1000, 'CAD', 'CA$10'],
    [1000, 'CHF', 'CHF\u00a010'],
    [-4850, 'usd', '-$48.50'],
    [5120, 'KWD', 'KWD\u00a05.120'],
  ])('shows %d minor units of %s as %s', (minorUnits, currency, shown) => {
    expect(formatMoney(minorUnits, currency)).toBe(shown);
  });

  it('keeps every decimal when asked, as the admin and the e-mails show money', () => {
    expect(formatMoney(9700, 'USD', { decimals: 'always' })).toBe('$97.00');
    expect(formatMoney(5000, 'KWD', { decimals: 'always' })).toBe('KWD\u00a05.000');
    expect(formatMoney(9700, 'JPY', { decimals: 'always' })).toBe('¥9,700');
  });

  it.each(STRIPE)('matches en-US Intl.NumberFormat for %s in both styles', (currency) => {
    for (const amount of SIGNED) {
      expect(formatMoney(amount, currency)).toBe(viaIntl(amount, currency, 'unless-whole'));
      expect(formatMoney(amount, currency, { decimals: 'always' })).toBe(viaIntl(amount, currency, 'always'));
    }
  });

  it('shows a code it does not list as Intl does: the code, two decimals', () => {
    expect(formatMoney(150, 'XYZ')).toBe(viaIntl(150, 'XYZ', 'unless-whole'));
    expect(minorUnitDigits('JPYX')).toBe(2);
    expect(minorUnitDigits('')).toBe(2);
  });
});

describe('minor units', () => {
  it.each(STRIPE)('counts %s in the minor units Stripe expects', (currency) => {
    const digits = ZERO_DECIMAL.includes(currency) ? 0 : THREE_DECIMAL.includes(currency) ? 3 : 2;
    expect(minorUnitDigits(currency)).toBe(digits);
    expect(minorUnitsPerMajor(currency.toLowerCase())).toBe(10 ** digits);
  });

  it('formats whole-unit catalogue prices in the funnel style', () => {
    expect(formatPrice(97, 'USD')).toBe('$97');
    expect(formatPrice(89, 'EUR')).toBe('€89');
    expect(formatPrice(9700, 'JPY')).toBe('¥9,700');
    expect(formatPrice(1982, 'USD')).toBe('$1,982');
  });

  it('turns whole-unit prices into unit amounts', () => {
    expect(toMinorUnits(97, 'USD')).toBe(9700);
    expect(toMinorUnits(9700, 'JPY')).toBe(9700);
    expect(toMinorUnits(5.12, 'KWD')).toBe(5120);
    expect(toMinorUnits(19.99, 'EUR')).toBe(1999);
  });
});
