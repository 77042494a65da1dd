import { expect, test, type Page } from '@playwright/test';
import { formatPrice } from '@contracts/money';
import { CURRENCY, planOf, type Plan } from '@contracts/plans';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, fillSandboxCard, followHandOffLink, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';
import { priceOf, siteCopy } from './support/seller-site';

/** The exact /checkout link a CTA follows (path plus query string, parameter order included), once /checkout has opened. */
function followToCheckout(page: Page, name: string): Promise<string> {
  return followHandOffLink(page, page.getByRole('link', { name, exact: true }));
}

const VISITOR = '?email=avery%40example.com&name=Avery+Example';
const upsellCopy = siteCopy<{ headline: string; startingFrom: string }>('copy/upsell.json');
const welcome = siteCopy<{ welcome: { heading: string } }>('copy/success.json').welcome.heading;
const sixMonth = planOf('6-month');
const twoMonth = planOf('2-month');
const fullPayment = planOf('full-payment');
/** What a plan costs in all: its instalments together, or its one payment. */
const total = (plan: Plan) => plan.amount * (plan.instalments ?? 1);
const money = (amount: number) => formatPrice(amount, CURRENCY);

test.describe('/upsell: the 30-Day Experience', () => {
  test('shows the offer, its contents, prices and the guarantee', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/upsell${VISITOR}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(upsellCopy.headline);
    await expect(heading).toBeFocused();
    await expect(page.getByRole('heading', { level: 2, name: 'The 30-Day Experience' })).toBeVisible();
    for (const item of ['A 3-day weekend intensive', 'One weekly live Q&A for 6 weeks', '6 months of support and posting access']) {
      await expect(page.getByText(item)).toBeVisible();
    }
    await expect(page.getByText(upsellCopy.startingFrom)).toHaveCount(2);

    const six = page.getByTestId('upsell-plan-6-month');
    await expect(six).toContainText('6 Monthly Payments');
    await expect(six).toContainText('MOST POPULAR');
    await expect(six).toContainText(`${sixMonth.instalments} × ${priceOf(sixMonth.id)} = ${money(total(sixMonth))}`);
    const two = page.getByTestId('upsell-plan-2-month');
    await expect(two).toContainText('2 Monthly Payments');
    await expect(two).toContainText('BEST VALUE');
    await expect(two).toContainText(`${twoMonth.instalments} × ${priceOf(twoMonth.id)} = ${money(total(twoMonth))}`);
    await expect(two).toContainText(`Save ${money(total(sixMonth) - total(twoMonth))}`);
    await expect(two).toHaveClass(/upsell__plan--highlighted/);
    const full = page.getByTestId('upsell-plan-full-payment');
    await expect(full).toContainText('Pay in Full');
    await expect(full).toContainText('BIGGEST SAVINGS');
    await expect(full).toContainText(priceOf(fullPayment.id));
    await expect(full).toContainText(`Save ${money(total(sixMonth) - total(fullPayment))}!`);
    await expect(page.getByText("We'll work with you until you do.")).toBeVisible();
    // 390 px first: nothing overflows sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  const buttons = [
    { name: `Start with ${priceOf(sixMonth.id)}/month`, plan: '6-month' },
    { name: `Start with ${priceOf(twoMonth.id)}/month`, plan: '2-month' },
    { name: `Pay ${priceOf(fullPayment.id)} now`, plan: 'full-payment' },
    { name: "YES—I'm Ready to Step Into My Power", plan: '2-month' },
    { name: 'Join the 30-Day Experience Now →', plan: '2-month' },
    { name: 'No thanks, continue with the basic program', plan: 'standard' },
  ];

  for (const { name, plan } of buttons) {
    test(`"${name}" goes to /checkout with plan ${plan}, email and name, and no referral when none is known`, async ({ page }) => {
      await page.goto(`/upsell${VISITOR}`);
      const target = await followToCheckout(page, name);
      expect(target).toBe(`/checkout?plan=${plan}&email=avery%40example.com&name=Avery+Example`);
    });

    test(`"${name}" carries the referral when present`, async ({ page }) => {
      await page.goto(`/upsell${VISITOR}&referral=partner-anna`);
      const target = await followToCheckout(page, name);
      expect(target).toBe(`/checkout?plan=${plan}&email=avery%40example.com&name=Avery+Example&referral=partner-anna`);
    });
  }

  test('keeps email and name keys even when the visitor arrived without them', async ({ page }) => {
    await page.goto('/upsell');
    const target = await followToCheckout(page, `Start with ${priceOf(sixMonth.id)}/month`);
    expect(target).toBe('/checkout?plan=6-month&email=&name=');
  });

  test('is usable from the keyboard: Tab reaches the main CTA and Enter follows it', async ({ page }) => {
    await page.goto(`/upsell${VISITOR}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('upsell-main-cta')).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/checkout' && url.searchParams.get('plan') === '2-month');
  });
});

test('the upsell page has no axe violations at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/upsell${VISITOR}`);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/upsell-390.png', fullPage: true });
});

test.describe('/upsell with the sandbox provider (real API)', () => {
  test('the main CTA → /checkout for 2-month → a real payment intent with the referral → 4242 → the welcome', async ({ page }) => {
    const email = uniqueEmail('upsell');
    const name = 'Avery Upsell';
    await page.goto(`/upsell?${new URLSearchParams({ email, name, referral: 'partner-anna' })}`);
    // Checkout creates its intent as soon as it opens, so the listener is set up before the click.
    const intent = page.waitForRequest('**/api/create-payment-intent');
    await page.getByRole('link', { name: "YES—I'm Ready to Step Into My Power", exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await fillSandboxCard(page, CARDS.success);
    expect((await intent).postDataJSON()).toMatchObject({ amount: twoMonth.amount, plan: twoMonth.name, email, name, referral: 'partner-anna' });
    await expect(payButton(page)).toHaveText(`Pay ${priceOf(twoMonth.id)}`);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('payment_intent') ?? '').startsWith('pi_'));
    expect(new URL(page.url()).searchParams.get('plan')).toBe('2-month');
    await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
  });
});
