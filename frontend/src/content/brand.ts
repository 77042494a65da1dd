/**
 * Brand settings: every name and address of the business lives here, so a rebrand is one edit.
 * This file is also read by vite.config.ts, so it must not import anything.
 */
export const brand = {
  name: 'Brightpath Coaching',
  siteUrl: 'https://www.brightpath.example',
  programName: 'Clear',
  methodName: 'CLEAR Method',
  founderName: 'Jordan Avery',
  paymentProvider: 'Stripe',
  themeColor: '#0b1324',
} as const;

export const defaultDocumentTitle = `${brand.programName} Method by ${brand.name}`;

export function pageTitle(page: string): string {
  return `${page} | ${defaultDocumentTitle}`;
}

export const documentHead = {
  title: defaultDocumentTitle,
  description: `${brand.programName} is a monthly coaching membership built on the five-step ${brand.methodName}: get clear in your marriage, finances, health and purpose.`,
  themeColor: brand.themeColor,
};
