// How en-US shows each currency, for ./money.ts. On the server every currency; in the browser build
// only the site's own (frontend/vite/site.plugin.ts), since buyer pages show the site's currency and
// every entry here would cost every page: there another currency reads with its ISO code
// ('EUR 89.00'), which is still right.

/** Currencies Stripe counts in hundredths but en-US shows in whole units ('ISK 1,235'), rounded half away from zero. */
export const SHOWN_WHOLE = 'AFN ALL COP HUF IDR ISK LAK LBP MMK PKR SOS STD YER';

/** en-US symbols that are not the code itself ('CHF 10' is the code). */
export const SYMBOLS: Readonly<Record<string, string>> = {
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
