import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { priceOf } from './support/seller-site';

const NAME = 'Quinn Upgrade';

/** A standard membership paid with 4242 in this browser: its card is saved, and the browser bound to it. */
async function becomeMember(page: Page, email: string): Promise<void> {
  await page.goto(checkoutUrl({ plan: 'standard', email, name: NAME }));
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
}

/** The sandbox charges of the buyer's orders of a plan. */
function chargesOf(email: string, planId: string): Promise<Array<{ status: string }>> {
  return withDb(async (client) => {
    const { rows } = await client.query<{ status: string }>(
      `SELECT s.status FROM sandbox_objects s JOIN orders o ON o.id = s.order_id
        WHERE o.email = $1 AND o.plan_id = $2 AND s.object = 'payment_intent'`,
      [email, planId],
    );
    return rows;
  });
}

const oneClickButton = (page: Page) => page.getByRole('button', { name: `Pay ${priceOf('2-month')} with card ending 4242` });

test.describe('one-click upgrade on the saved card', () => {
  test("4242 standard → the offer's 2-month card → one click, clicked twice quickly → one charge", async ({ page }) => {
    const email = uniqueEmail('one-click');
    await becomeMember(page, email);
    await page.getByTestId('offer-plan-2-month').getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await expect(oneClickButton(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use a different card' })).toBeVisible();
    // No card is typed here, so no card form and no mandate; the page stays accessible.
    await expect(page.getByTestId('sandbox-card-form')).toHaveCount(0);
    await expectNoAxeViolations(page);

    await oneClickButton(page).dblclick();
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('payment_intent') ?? '').startsWith('pi_'));
    // After an upgrade, /success welcomes the member (the first payment showed 'Payment Confirmed!').
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome to / })).toBeVisible();
    expect(await chargesOf(email, '2-month')).toEqual([{ status: 'succeeded' }]);
  });

  test('reopened in the middle of the payment, the page still charges once', async ({ page }) => {
    const email = uniqueEmail('one-click-reload');
    await becomeMember(page, email);
    await page.goto(checkoutUrl({ plan: '2-month', email, name: NAME }));
    // The charge is made, but its answer never reaches this page: the buyer reopens the page mid-payment.
    let charged: () => void = () => undefined;
    const made = new Promise<void>((resolve) => (charged = resolve));
    await page.route('**/api/one-click', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fetch();
      charged();
    });
    await oneClickButton(page).click();
    await made;
    await page.unroute('**/api/one-click');
    expect(await chargesOf(email, '2-month')).toEqual([{ status: 'succeeded' }]);
    await page.goto(checkoutUrl({ plan: '2-month', email, name: NAME }));
    // The offer is made again; the same purchase answers with the same charge.
    await oneClickButton(page).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome to / })).toBeVisible();
    expect(await chargesOf(email, '2-month')).toEqual([{ status: 'succeeded' }]);
  });

  test("'Use a different card' shows the card form with the mandate; a stranger's browser is offered nothing", async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail('one-click-other');
    await becomeMember(page, email);
    await page.goto(checkoutUrl({ plan: '6-month', email, name: NAME }));
    await page.getByRole('button', { name: 'Use a different card' }).click();
    await expect(page.getByTestId('sandbox-card-form')).toBeVisible();
    await expect(page.getByText(/By paying, you allow us to charge this card/)).toBeVisible();
    await expect(payButton(page)).toBeVisible();

    const stranger = await browser.newPage();
    await stranger.goto(checkoutUrl({ plan: '6-month', email, name: NAME }));
    await expect(stranger.getByTestId('sandbox-card-form')).toBeVisible();
    await expect(stranger.getByRole('button', { name: /with card ending/ })).toHaveCount(0);
    await stranger.close();
  });
});
