import { site } from '../../../backend/src/contracts/site/site';

/**
 * Brand settings, from the site folder's site.json. This file is also read by vite.config.ts, so it
 * imports the site module by its path (aliases do not apply there).
 */
export const brand = { ...site.brand, paymentProvider: 'Stripe' } as const;

export const defaultDocumentTitle = `${brand.programName} Method by ${brand.name}`;

export function pageTitle(page: string): string {
  return `${page} | ${defaultDocumentTitle}`;
}

export const documentHead = {
  title: defaultDocumentTitle,
  description: `${brand.programName} is a monthly coaching membership built on the five-step ${brand.methodName}: get clear in your marriage, finances, health and purpose.`,
};
