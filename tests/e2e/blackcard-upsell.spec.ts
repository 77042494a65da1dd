import { expect, test } from '@playwright/test';
import { planOf } from '@contracts/plans';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, fillSandboxCard, followHandOffLink, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';
import { priceOf, siteCopy } from './support/seller-site';

const VISITOR = 'email=avery%40example.com&name=Avery+Example';
const levelTwo = planOf('blackcard-vip');
const welcome = siteCopy<{ welcome: { heading: string } }>('copy/success.json').welcome.heading;
const ACCEPT_BUTTONS = ['level-two-accept-hero', 'level-two-accept-section', 'level-two-accept-investment', 'level-two-accept-final'];

test.describe('/blackcard-upsell: Level Two', () => {
  test("progress at 25 %, Level Two at its plan's price, one-time, with its contents, and the levels table", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/blackcard-upsell?${VISITOR}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Level Two: The Ascension Experience' })).toBeFocused();
    const progress = page.getByTestId('level-two-progress');
    await expect(progress).toContainText("You've completed Level 1 – The Gateway");
    await expect(progress).toContainText('25% of the way to earning your Black Card');
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(await page.locator('.level-two__bar-fill').evaluate((fill) => fill.style.width)).toBe('25%');

    const investment = page.getByTestId('level-two-investment');
    await expect(investment).toContainText(priceOf(levelTwo.id));
    await expect(investment).toContainText('One-Time Payment (Instant Access)');
    const contents = page.getByTestId('level-two-contents').getByRole('listitem');
    await expect(contents).toHaveCount(6);
    for (const item of [
      '103-video course (11 modules, 103 lessons)',
      '3-day live virtual intensive',
      '30-day integration challenge',
      'Six weeks of live coaching and accountability',
      'community',
      "'Black Card'",
    ]) {
      await expect(page.getByTestId('level-two-contents')).toContainText(item);
    }
    const table = page.getByTestId('level-two-levels');
    await expect(table.getByRole('columnheader')).toHaveText(['Level', 'Focus', 'Investment', 'Result']);
    await expect(table.getByRole('row')).toHaveCount(5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  const cases = [
    { label: 'email and name only', extra: '', accept: '', decline: '' },
    { label: 'a referral', extra: '&referral=partner-anna', accept: '&referral=partner-anna', decline: '&referral=partner-anna' },
    { label: 'a token', extra: '&token=tok_9', accept: '&token=tok_9', decline: '' },
    {
      label: 'a referral and a token',
      extra: '&token=tok_9&referral=partner-anna',
      accept: '&referral=partner-anna&token=tok_9',
      decline: '&referral=partner-anna',
    },
  ];

  for (const { label, extra, accept, decline: declined } of cases) {
    for (const testId of ACCEPT_BUTTONS) {
      test(`${testId} with ${label} → /checkout for blackcard-vip`, async ({ page }) => {
        await page.goto(`/blackcard-upsell?${VISITOR}${extra}`);
        expect(await followHandOffLink(page, page.getByTestId(testId))).toBe(
          `/checkout?plan=blackcard-vip&${VISITOR}&source=blackcard${accept}`,
        );
        await expect(page.getByTestId('customer-email')).toHaveText('avery@example.com');
      });
    }

    test(`the decline with ${label} → /success, final, never the token`, async ({ page }) => {
      await page.goto(`/blackcard-upsell?${VISITOR}${extra}`);
      const decline = page.getByRole('link', { name: "No thanks, I'll continue with Level One" });
      expect(await followHandOffLink(page, decline)).toBe(`/success?plan=standard&${VISITOR}&source=blackcard&final=true${declined}`);
      await expect(page.getByRole('heading', { level: 1, name: "You're All Set!" })).toBeVisible();
    });
  }

  test('without a query every value defaults to empty', async ({ page }) => {
    await page.goto('/blackcard-upsell');
    await expect(page.getByTestId('level-two-accept-hero')).toHaveAttribute(
      'href',
      '/checkout?plan=blackcard-vip&email=&name=&source=blackcard',
    );
    await expect(page.getByTestId('level-two-decline')).toHaveAttribute(
      'href',
      '/success?plan=standard&email=&name=&source=blackcard&final=true',
    );
  });

  test('no axe violations at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/blackcard-upsell?${VISITOR}`);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/screenshots/blackcard-upsell-390.png', fullPage: true });
  });
});

test.describe('/blackcard-upsell with the sandbox provider (real API)', () => {
  test('accepting Level Two with a token from the real gate: blackcard-vip paid in the sandbox → the welcome', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('level-two');
    const name = 'Avery Ascends';
    const gate = await request.post('/api/invitation-gate', { data: { name, email } });
    expect(gate.status()).toBe(201);
    const { accessToken } = (await gate.json()) as { accessToken: string };
    expect(accessToken).toBeTruthy();

    await page.goto(`/blackcard-upsell?${new URLSearchParams({ email, name, token: accessToken, referral: 'partner-anna' })}`);
    // Checkout creates its intent as soon as it opens, so the listener is set up before the click.
    const intent = page.waitForRequest('**/api/create-payment-intent');
    await page.getByTestId('level-two-accept-hero').click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await fillSandboxCard(page, CARDS.success);
    expect((await intent).postDataJSON()).toMatchObject({
      amount: levelTwo.amount,
      plan: levelTwo.name,
      email,
      name,
      source: 'blackcard',
      blackcard_token: accessToken,
      referral: 'partner-anna',
    });
    await expect(payButton(page)).toHaveText(`Pay ${priceOf(levelTwo.id)}`);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('payment_intent') ?? '').startsWith('pi_'));
    expect(new URL(page.url()).searchParams.get('plan')).toBe('blackcard-vip');
    await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
  });
});
