import { formatMoney, formatPrice, minorUnitDigits, toMinorUnits } from '@contracts/money';
import { CURRENCY, planOf, type PlanId } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';

/** The page copy files the specs read by name, each typed as the default site's file (their schema). */
interface PageCopyFiles {
  checkout: typeof import('../../../site/copy/checkout.json');
  head: typeof import('../../../site/copy/head.json');
  landing: typeof import('../../../site/copy/landing.json');
  'landing-sections': typeof import('../../../site/copy/landing-sections.json');
  pages: typeof import('../../../site/copy/pages.json');
  success: typeof import('../../../site/copy/success.json');
  upsell: typeof import('../../../site/copy/upsell.json');
}

/** A page's copy file (`copy/<name>.json`), typed, its site terms ({program}, {price:standard}…) filled in. */
export function pageCopy<K extends keyof PageCopyFiles>(name: K): PageCopyFiles[K] {
  return siteCopy<PageCopyFiles[K]>(`copy/${name}.json`);
}

/** A copy file of the site (`copy/success.json`, `emails/refund.json`), its site terms filled in as the pages show it. */
export function siteCopy<T>(relativePath: string): T {
  return loadCopy<T>(siteDir(__dirname), defaultSiteDir(__dirname), relativePath, site);
}

/** A plan's price as the buyer pages show it: '$97', '€89'. */
export function priceOf(planId: PlanId): string {
  return formatPrice(planOf(planId).amount, CURRENCY);
}

/** Whole units of the site's currency in Stripe's minor units, as the database holds them: 997 USD is 99700. */
export function minorUnits(amount: number): number {
  return toMinorUnits(amount, CURRENCY);
}

/** Whole units of the site's currency as the admin and the e-mails show them: '$997.00', '€89.00'. */
export function adminMoney(amount: number): string {
  return formatMoney(toMinorUnits(amount, CURRENCY), CURRENCY, { decimals: 'always' });
}

/** Whole (or fractional) units of the site's currency in the funnel's style: '$48.50', '$997'. */
export function funnelMoney(amount: number): string {
  return formatMoney(toMinorUnits(amount, CURRENCY), CURRENCY);
}

/** The source of a RegExp matching any amount as the admin shows it in the site's currency: '\$[\d,]+\.\d\d' for USD. */
export function adminMoneyPattern(): string {
  const digits = minorUnitDigits(CURRENCY);
  const symbol = adminMoney(0).replace(/0(\.0+)?$/, '');
  return `${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\d,]+${digits > 0 ? `\\.\\d{${digits}}` : ''}`;
}
