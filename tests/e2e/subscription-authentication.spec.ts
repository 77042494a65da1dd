import { expect, test } from '@playwright/test';
import { answerSandboxAuthentication, CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';

const NAME = 'Avery Example';

/**
 * A card whose bank asks for authentication on every payment (4000 0027 6000 3184): the card
 * setup is authenticated, then the subscription's first payment asks again. The buyer completes
 * it in the browser (the sandbox's page, as Stripe.js's handleNextAction shows the bank's) and the
 * subscription is paid; before, the subscription stayed incomplete with no way to finish it.
 */
test.describe('a subscription whose first payment asks for authentication', () => {
  test('authenticated twice (card, then first payment) → Payment Confirmed!', async ({ page }) => {
    const nextAction = page.waitForResponse('**/api/sandbox/next-action');
    await page.goto(checkoutUrl({ plan: 'standard', email: uniqueEmail('auth-every'), name: NAME }));
    await fillSandboxCard(page, CARDS.authenticationEveryPayment);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'complete');
    // Back on /checkout, the subscription is created and its first payment waits for the bank.
    expect((await nextAction).ok()).toBe(true);
    await page.waitForURL((url) => url.pathname === '/api/sandbox/authenticate');
    await answerSandboxAuthentication(page, 'complete');
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('subscription_id') ?? '').startsWith('sub_'));
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
  });

  test('first payment not authenticated → /success says the payment is incomplete', async ({ page }) => {
    await page.goto(checkoutUrl({ plan: 'standard', email: uniqueEmail('auth-every-fail'), name: NAME }));
    await fillSandboxCard(page, CARDS.authenticationEveryPayment);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'complete');
    await page.waitForURL(
      (url) => url.pathname === '/api/sandbox/authenticate' && url.searchParams.get('client_secret')?.startsWith('pi_') === true,
    );
    await answerSandboxAuthentication(page, 'fail');
    await page.waitForURL((url) => url.pathname === '/success' && url.searchParams.get('redirect_status') === 'failed');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Incomplete' })).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText(/incomplete/);
  });
});
