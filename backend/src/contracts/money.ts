// Money as the funnel, the admin and the e-mails show it: one formatter for every currency Stripe
// charges in, en-US conventions. Formatted by hand rather than with toLocaleString or
// Intl.NumberFormat: the first Intl formatter of a page loads ICU's number data, 10–20 ms of main
// thread on a fast machine (four times that on the phones the budget is set for), inside the
// hydration of every page that shows a price. money.spec.ts holds it to Node's full-ICU Intl.

/** Stripe's presentment currencies (docs.stripe.com/currencies), ISO 4217 codes. */
const STRIPE_CURRENCIES = new Set(
  (
    'USD AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BWP BYN BZD CAD CDF ' +
    'CHF CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP GEL GIP GMD GNF GTQ GYD HKD HNL HTG HUF ' +
    'IDR ILS INR ISK JMD JOD JPY KES KGS KHR KMF KRW KWD KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP ' +
    'MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD ' +
    'SCR SEK SGD SHP SLE SOS SRD STD SZL THB TJS TND TOP TRY TTD TWD TZS UAH UGX UYU UZS VND VUV WST XAF XCD XCG ' +
    'XOF XPF YER ZAR ZMW'
  ).split(' '),
);

/** Stripe's zero-decimal currencies: an API amount of 500 is 500 yen. */
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));

/** Stripe's three-decimal currencies: an API amount of 5120 is 5.120 dinars. */
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

/** Currencies Stripe counts in hundredths but en-US shows in whole units ('ISK 1,235'), rounded half away from zero. */
const SHOWN_WHOLE = new Set('AFN ALL COP HUF IDR ISK LAK LBP MMK PKR SOS STD YER'.split(' '));

/** en-US symbols that are not the code itself ('CHF 10' is the code). */
const SYMBOLS: Readonly<Record<string, string>> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  AUD: 'A$',
  BRL: 'R$',
  CAD: 'CA$',
  CNY: 'CN¥',
  HKD: 'HK$',
  ILS: '₪',
  INR: '₹',
  KRW: '₩',
  MXN: 'MX$',
  NZD: 'NZ$',
  PHP: '₱',
  TWD: 'NT$',
  VND: '₫',
  XAF: 'FCFA',
  XCD: 'EC$',
  XCG: 'Cg.',
  XOF: 'F\u202fCFA',
  XPF: 'CFPF',
};

/** ICU's currency spacing: a symbol that does not end in a symbol character ('CHF', 'Cg.') is kept from the digits by a no-break space. */
const ENDS_IN_SYMBOL = /\p{S}$/u;

function known(currency: string): string {
  const code = currency.toUpperCase();
  if (!STRIPE_CURRENCIES.has(code)) throw new Error(`"${currency}" is not a currency Stripe charges in`);
  return code;
}

/** True for the ISO codes (any case) of the currencies Stripe charges in. */
export function isStripeCurrency(currency: string): boolean {
  return STRIPE_CURRENCIES.has(currency.toUpperCase());
}

/** How many decimals a currency's amounts have in Stripe's API: 0 (JPY), 2 (USD) or 3 (KWD). */
export function minorUnitDigits(currency: string): 0 | 2 | 3 {
  const code = known(currency);
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** Stripe's minor units in one whole unit of the currency: 1 (JPY), 100 (USD), 1000 (KWD). */
export function minorUnitsPerMajor(currency: string): number {
  return 10 ** minorUnitDigits(currency);
}

/** A price in whole units (the catalogue's `amount`) as Stripe's `unit_amount`: 97 USD is 9700, 9700 JPY is 9700. */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * minorUnitsPerMajor(currency));
}

export interface MoneyFormat {
  /**
   * 'unless-whole' (the funnel's style, the default): '$97' for whole amounts, every decimal otherwise ('$48.50').
   * 'always' (the admin's and the e-mails' style): '$97.00'.
   */
  decimals?: 'unless-whole' | 'always';
}

/**
 * An amount in Stripe's minor units as en-US shows it: '$97', '€89', '¥9,700', 'CA$10', 'CHF 10',
 * '-$48.50', 'KWD 5.120'. Throws for a code Stripe does not charge in.
 */
export function formatMoney(minorUnits: number, currency: string, format: MoneyFormat = {}): string {
  const code = known(currency);
  const digits = minorUnitDigits(code);
  const shown = SHOWN_WHOLE.has(code) ? 0 : digits;
  const units = Math.round(Math.abs(minorUnits) / 10 ** (digits - shown));
  const scale = 10 ** shown;
  const whole = Math.floor(units / scale)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ',');
  const fraction = units % scale;
  const decimals = shown > 0 && (fraction > 0 || format.decimals === 'always') ? `.${String(fraction).padStart(shown, '0')}` : '';
  const symbol = SYMBOLS[code] ?? code;
  const space = ENDS_IN_SYMBOL.test(symbol) ? '' : '\u00a0';
  return `${minorUnits < 0 ? '-' : ''}${symbol}${space}${whole}${decimals}`;
}

/** A price in whole units (the catalogue's `amount`) in the funnel's style: 97 USD is '$97', 9700 JPY '¥9,700'. */
export function formatPrice(amount: number, currency: string): string {
  return formatMoney(toMinorUnits(amount, currency), currency);
}
