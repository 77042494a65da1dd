import { expect, test, type Page } from '@playwright/test';
import { formatMoney, formatPrice, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, type Plan } from '@contracts/plans';
import { fill } from '@contracts/site/fill';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { waitForMail } from './support/mail';

/**
 * The order bump at /checkout through the sandbox (issue 37's done-when): the add-on is offered
 * unticked; ticked, the total and the pay button add its price and the first payment charges
 * both at once, with a receipt of both lines; unticked, the plan is paid alone. Prices, names and
 * words come from the site folder.
 */
const NAME = 'Bo Bump';
const PLAN = OFFERS.default;
const BUMP = OFFERS.bump as Plan;
const copy = loadCopy<{ payLabel: string; bump: { label: string } }>(siteDir(__dirname), defaultSiteDir(__dirname), 'copy/checkout.json', site);
const cents = (plan: Plan) => toMinorUnits(plan.amount, CURRENCY);
const TOTAL = cents(PLAN) + cents(BUMP);

const paymentsOf = (email: string) =>
  withDb(async (db) => {
    const { rows } = await db.query(
      `SELECT p.amount_cents FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.email = $1 AND o.paid_at IS NOT NULL`,
      [email],
    );
    return rows.map((r: { amount_cents: number }) => r.amount_cents);
  });

async function pay(page: Page, email: string): Promise<void> {
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  await expect.poll(() => paymentsOf(email), { timeout: 20_000 }).toHaveLength(1);
}

test('ticked, the add-on is in the total and the button, and the first payment charges both once, with a two-line receipt', async ({ page }) => {
  const email = uniqueEmail('bump-ticked');
  await page.goto(checkoutUrl({ plan: PLAN.id, email, name: NAME }));
  const bump = page.getByRole('checkbox', { name: copy.bump.label });
  await expect(bump).not.toBeChecked();
  await expect(payButton(page)).toHaveText(fill(copy.payLabel, { amount: formatPrice(PLAN.amount, CURRENCY) }));

  await bump.check();
  await expect(payButton(page)).toHaveText(fill(copy.payLabel, { amount: formatMoney(TOTAL, CURRENCY) }));
  await expect(page.getByTestId('summary-amount')).toHaveText(formatMoney(TOTAL, CURRENCY));
  await expect(page.getByTestId('summary-bump')).toContainText(BUMP.name);
  await pay(page, email);
  expect(await paymentsOf(email)).toEqual([TOTAL]);

  const [receipt] = await waitForMail(email, /receipt/i);
  const money = (amountCents: number) => formatMoney(amountCents, CURRENCY, { decimals: 'always' });
  expect(receipt.text).toContain(`Plan: ${PLAN.name}`);
  expect(receipt.text).toContain(`Add-on: ${BUMP.name}: ${money(cents(BUMP))}`);
  expect(receipt.text).toContain(money(TOTAL));
});

test('ticked and unticked again, the plan is paid alone at its price', async ({ page }) => {
  const email = uniqueEmail('bump-unticked');
  await page.goto(checkoutUrl({ plan: PLAN.id, email, name: NAME }));
  const bump = page.getByRole('checkbox', { name: copy.bump.label });
  await bump.check();
  await expect(payButton(page)).toHaveText(fill(copy.payLabel, { amount: formatMoney(TOTAL, CURRENCY) }));
  await bump.uncheck();
  await expect(payButton(page)).toHaveText(fill(copy.payLabel, { amount: formatPrice(PLAN.amount, CURRENCY) }));
  await expect(page.getByTestId('summary-bump')).toHaveCount(0);
  await pay(page, email);
  expect(await paymentsOf(email)).toEqual([cents(PLAN)]);
  const [receipt] = await waitForMail(email, /receipt/i);
  expect(receipt.text).not.toContain(BUMP.name);
});

test('the add-on is never sold alone: /checkout with its plan id sells the default plan, as with an unknown plan', async ({ page }) => {
  for (const plan of [BUMP.id, 'no-such-plan']) {
    await page.goto(checkoutUrl({ plan, email: uniqueEmail('bump-alone'), name: NAME }));
    await expect(page.getByTestId('summary-plan')).toHaveText(PLAN.name);
    await expect(payButton(page)).toHaveText(fill(copy.payLabel, { amount: formatPrice(PLAN.amount, CURRENCY) }));
    await expect(page.getByRole('checkbox', { name: copy.bump.label })).not.toBeChecked();
  }
});
