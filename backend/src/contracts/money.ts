import { SHOWN_WHOLE, SYMBOLS } from './currency-display';

// Money as the funnel, the admin and the e-mails show it: one formatter for every currency Stripe
// charges in, en-US conventions. Formatted by hand rather than with toLocaleString or
// Intl.NumberFormat: the first Intl formatter of a page loads ICU's number data, 10–20 ms of main
// thread on a fast machine (four times that on the phones the budget is set for), inside the
// hydration of every page that shows a price. money.spec.ts holds it to Node's full-ICU Intl.

// Space-separated lists rather than Sets, and no list of all of Stripe's currencies, keep this
// module small on every buyer page; the spec checks every currency Stripe lists. How each currency
// is shown (symbol, whole units) is in ./currency-display.ts, which the browser build narrows to
// the site's currency.

/** Whether a list holds the code: a three-letter code can only match a whole entry. */
const listed = (list: string, code: string): boolean => /^[A-Z]{3}$/.test(code) && list.includes(code);

/** Stripe's zero-decimal currencies (docs.stripe.com/currencies): an API amount of 500 is 500 yen. */
const ZERO_DECIMAL = 'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF';

/** Stripe's three-decimal currencies: an API amount of 5120 is 5.120 dinars. */
const THREE_DECIMAL = 'BHD JOD KWD OMR TND';


/**
 * How many decimals a currency's amounts have in Stripe's API: 0 (JPY), 2 (USD) or 3 (KWD). Codes
 * of any case; a code Stripe does not list counts as two-decimal, as ISO 4217 has most currencies.
 */
export function minorUnitDigits(currency: string): 0 | 2 | 3 {
  const code = currency.toUpperCase();
  return listed(ZERO_DECIMAL, code) ? 0 : listed(THREE_DECIMAL, code) ? 3 : 2;
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
   * 'unless-whole' (the funnel's style, the default): '$10' for whole amounts, every decimal otherwise ('$12.50').
   * 'always' (the admin's and the e-mails' style): '$10.00'.
   */
  decimals?: 'unless-whole' | 'always';
}

/**
 * An amount in Stripe's minor units as en-US shows it: '$10', '€10', '¥1,000', 'CA$10', 'CHF 10',
 * '-$48.50', 'KWD 5.120'.
 */
export function formatMoney(minorUnits: number, currency: string, format: MoneyFormat = {}): string {
  const code = currency.toUpperCase();
  const digits = minorUnitDigits(code);
  const shown = listed(SHOWN_WHOLE, code) ? 0 : digits;
  const units = Math.round(Math.abs(minorUnits) / 10 ** (digits - shown));
  const scale = 10 ** shown;
  const whole = Math.floor(units / scale)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ',');
  const fraction = units % scale;
  const decimals = shown > 0 && (fraction > 0 || format.decimals === 'always') ? `.${String(fraction).padStart(shown, '0')}` : '';
  const symbol = SYMBOLS[code] ?? code;
  // ICU's currency spacing: a symbol that does not end in a symbol character ('CHF', 'Cg.') is kept from the digits by a no-break space.
  const space = /\p{S}$/u.test(symbol) ? '' : '\u00a0';
  return `${minorUnits < 0 ? '-' : ''}${symbol}${space}${whole}${decimals}`;
}

/** A price in whole units (the catalogue's `amount`) in the funnel's style: 10 USD is '$10', 1000 JPY '¥1,000'. */
export function formatPrice(amount: number, currency: string): string {
  return formatMoney(toMinorUnits(amount, currency), currency);
}
