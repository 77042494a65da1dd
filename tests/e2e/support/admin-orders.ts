import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { signInToAdmin } from './admin';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './checkout';
import { waitForMail } from './mail';

/**
 * The start of every orders-screen journey: `buyer` pays `plan` in the sandbox in a browser of
 * their own (until the receipt arrives), then the admin signs in on `page`, straight to
 * /admin/orders, and searches the buyer's address. Resolves with the one order card found.
 */
export async function paidOrderOnOrdersScreen(
  page: Page,
  browser: Browser,
  { plan, buyer, admin }: { plan: string; buyer: { email: string; name: string }; admin: { email: string; password: string } },
): Promise<Locator> {
  const shopper = await browser.newContext();
  const checkout = await shopper.newPage();
  await checkout.goto(checkoutUrl({ plan, email: buyer.email, name: buyer.name }));
  await fillSandboxCard(checkout, CARDS.success);
  await payButton(checkout).click();
  await checkout.waitForURL((url) => url.pathname === '/success');
  await waitForMail(buyer.email, /receipt/i);
  await shopper.close();

  await signInToAdmin(page, admin, '/admin/orders');
  await expect(page.getByRole('heading', { level: 1, name: 'Orders and refunds' })).toBeVisible();
  await page.getByLabel('E-mail or order id').fill(buyer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const card = page.getByTestId('order-card');
  await expect(card).toHaveCount(1);
  return card;
}
