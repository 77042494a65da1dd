import { expect, test } from '@playwright/test';
import { ROUTES } from '@contracts/routes';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';
import { CARDS, fillSandboxCard, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';

/**
 * /upsell offers whatever plans the site's offers.upgrade lists, each with the card
 * copy/plan-cards.json gives it, so a seller's own plan (an annual one, say) is sold there as the
 * default site's are. Everything expected is read from the site folder the server was built from.
 */
interface Card {
  plan: string;
  title: string;
  cta: string;
}
const cards = loadCopy<Card[]>(siteDir(__dirname), defaultSiteDir(__dirname), 'copy/plan-cards.json', site);
const offered = site.offers.upgrade.map((id) => ({ plan: site.plans.find((p) => p.id === id)!, card: cards.find((c) => c.plan === id)! }));

test('/upsell shows a card for each upgrade plan, each leading to checkout for its plan', async ({ page }) => {
  await page.goto(`${ROUTES.upsell}?email=avery%40example.com&name=Avery`);
  await expect(page.locator('[data-testid^="upsell-plan-"]')).toHaveCount(offered.length);
  for (const { plan, card } of offered) {
    const shown = page.getByTestId(`upsell-plan-${plan.id}`);
    await expect(shown.getByRole('heading', { name: card.title })).toBeVisible();
    const href = await shown.getByRole('link', { name: card.cta, exact: true }).getAttribute('href');
    expect(new URL(href ?? '', 'http://x').searchParams.get('plan')).toBe(plan.id);
  }
});

test("/upsell sells the last upgrade plan through its card's button", async ({ page }) => {
  const { plan, card } = offered[offered.length - 1];
  const email = uniqueEmail('upsell-last-plan');
  await page.goto(`${ROUTES.upsell}?${new URLSearchParams({ email, name: 'Avery Upsell' })}`);
  await page.getByTestId(`upsell-plan-${plan.id}`).getByRole('link', { name: card.cta, exact: true }).click();
  await page.waitForURL((url) => url.pathname === ROUTES.checkout && url.searchParams.get('plan') === plan.id);
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === ROUTES.success);
  expect(new URL(page.url()).searchParams.get('plan')).toBe(plan.id);
});
