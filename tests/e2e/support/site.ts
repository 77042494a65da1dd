import { formatPrice } from '@contracts/money';
import { CURRENCY, planOf, type PlanId } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';

// The site under test (SITE_DIR, else site/), as the build and the server read it: specs take
// names, prices and words from here, so they hold for a seller's edited site as for the default.

/** The copy files the specs read, each typed as the default site's file (their schema). */
interface CopyFiles {
  checkout: typeof import('../../../site/copy/checkout.json');
  head: typeof import('../../../site/copy/head.json');
  landing: typeof import('../../../site/copy/landing.json');
  'landing-sections': typeof import('../../../site/copy/landing-sections.json');
  pages: typeof import('../../../site/copy/pages.json');
  success: typeof import('../../../site/copy/success.json');
  upsell: typeof import('../../../site/copy/upsell.json');
}

/** A page's copy file of the site under test, its site terms ({program}, {price:standard}…) filled in. */
export function siteCopy<K extends keyof CopyFiles>(name: K): CopyFiles[K] {
  return loadCopy<CopyFiles[K]>(siteDir(__dirname), defaultSiteDir(__dirname), `copy/${name}.json`, site);
}

/** A catalogue plan's amount as the pages show it: '$97', '€89'. */
export function priceOf(plan: PlanId): string {
  return formatPrice(planOf(plan).amount, CURRENCY);
}
