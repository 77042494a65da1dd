import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { formatMoney, formatPrice, toMinorUnits } from '@contracts/money';
import { ROUTES } from '@contracts/routes';
import { defaultSiteDir, loadCopy, loadSite } from '@contracts/site/site-folder';
import { CARDS, fillSandboxCard, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';
import { waitForMail } from './support/mail';

/**
 * The example site (tests/fixtures/site-example: another brand, EUR, no invitation funnel) in the
 * browser: `npm test` builds the web app from it and serves it with an API and a worker of its own
 * (scripts/test.ts, E2E_SITE_EXAMPLE_URL). What the pages must show is read from its folder.
 */
const exampleDir = join(__dirname, '../fixtures/site-example');
const settings = loadSite(exampleDir);
const copy = <T>(file: string): T => loadCopy<T>(exampleDir, defaultSiteDir(__dirname), file, settings);
const plan = settings.plans.find((p) => p.id === settings.offers.default)!;
const price = formatPrice(plan.amount, settings.currency);

const siteUrl = process.env.E2E_SITE_EXAMPLE_URL;
test.use({ baseURL: siteUrl });
test.beforeAll(() => {
  if (!siteUrl) throw new Error('E2E_SITE_EXAMPLE_URL is not set: run the browser tests through "npm test"');
});

const INVITATION_PAGES: string[] = [ROUTES.invitation, ROUTES.blackcard];

/** The links of the page that lead into the invitation funnel (its gate or the invitee's page). */
async function invitationLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return hrefs.filter((href) => INVITATION_PAGES.includes(new URL(href).pathname.toLowerCase().replace(/\/+$/, '')));
}

test('the example site: landing, lead, checkout in its currency, success and a receipt in its currency', async ({ page }) => {
  const email = uniqueEmail('site-example');
  await page.goto('/');
  await expect(page.getByTestId('lead-submit')).toBeEnabled();
  const landing = page.locator('body');
  await expect(landing).toContainText(settings.brand.name);
  await expect(landing).toContainText(settings.brand.programName);
  await expect(landing).toContainText(price);
  expect(await invitationLinks(page)).toEqual([]);

  const form = page.getByTestId('lead-form');
  await form.locator('input[name="name"]').fill('Example Buyer');
  await form.locator('input[name="email"]').fill(email);
  const setup = page.waitForRequest('**/api/create-setup-intent');
  await page.getByTestId('lead-submit').click();
  await page.waitForURL((url) => url.pathname === ROUTES.checkout);
  await fillSandboxCard(page, CARDS.success);
  await setup;
  await expect(payButton(page)).toContainText(price);
  const confirm = page.waitForRequest('**/api/confirm-subscription');
  await payButton(page).click();
  expect((await confirm).postDataJSON()).toMatchObject({ email, amount: plan.amount, plan: plan.name });

  await page.waitForURL((url) => url.pathname === ROUTES.success);
  expect(new URL(page.url()).searchParams.get('plan')).toBe(plan.id);
  const success = copy<{ confirmed: { heading: string } }>('copy/success.json');
  await expect(page.getByRole('heading', { level: 1, name: success.confirmed.heading })).toBeVisible();
  expect(await invitationLinks(page)).toEqual([]);

  // The receipt's subject as far as the code fills nothing in ('Your <programme> receipt: ').
  const subject = copy<{ subject: string }>('emails/receipt.json').subject.split('{')[0];
  const [receipt] = await waitForMail(email, new RegExp(`^${subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  expect(receipt.envelope.from).toBe(settings.brand.sender.address);
  expect(receipt.text).toContain(formatMoney(toMinorUnits(plan.amount, settings.currency), settings.currency, { decimals: 'always' }));
});

test('the example site leaves the invitation funnel out: its pages answer 404 with the not-found page', async ({ page }) => {
  const notFound = copy<{ pages: { notFound: { heading: string } } }>('copy/pages.json').pages.notFound.heading;
  for (const path of INVITATION_PAGES) {
    const response = await page.goto(path);
    expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
    await expect(page.getByTestId('not-found').getByRole('heading', { level: 1, name: notFound })).toBeVisible();
  }
});
