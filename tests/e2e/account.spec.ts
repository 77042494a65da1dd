import { expect, test, type Page } from '@playwright/test';
import { JOBS } from '@contracts/jobs';
import { planOf } from '@contracts/plans';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { databaseNow, jobsEndedSince } from './support/db';
import { uniqueEmail } from './support/landing';
import { mailTo, waitForMail } from './support/mail';
import { intlFormattingCalls, watchIntlFormatting } from './support/page-code';
import { priceOf } from './support/seller-site';

/** A standard member bought with the sandbox (4242), on its success page. */
async function buyStandard(page: Page, email: string): Promise<void> {
  await page.goto(checkoutUrl({ plan: 'standard', email, name: 'Ada Account' }));
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
}

/** Asks /account for a sign-in link and returns the link's path and query from the received e-mail. */
async function requestSignInLink(page: Page, email: string): Promise<string> {
  await page.goto('/account');
  const form = page.getByTestId('account-sign-in');
  await form.getByLabel('Email address').fill(email);
  await form.getByRole('button', { name: 'Send me a sign-in link' }).click();
  await expect(page.getByTestId('account-link-outcome')).toContainText('If this address has a membership, a sign-in link is on its way');
  const [mail] = await waitForMail(email, /sign-in link/i);
  const link = mail.text?.match(/https?:\/\/\S+\/account\?token=[A-Za-z0-9_-]{43}/)?.[0];
  expect(link).toBeTruthy();
  const target = new URL(link!);
  return `${target.pathname}${target.search}`;
}

test.describe('account page', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
  });

  test('a buyer signs in with the e-mailed link, cancels (past the survey), resumes and updates the card', async ({ page }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('account');
    await buyStandard(page, email);

    const path = await requestSignInLink(page, email);
    await expectNoAxeViolations(page);
    await watchIntlFormatting(page);
    // Opening the link uses nothing up (mail scanners open links too): only the button does.
    const exchanges: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/account/session') exchanges.push(req.method());
    });
    await page.goto(path);
    const signIn = page.getByRole('button', { name: 'Sign in to your account' });
    await expect(signIn).toBeFocused();
    await expect(page.getByTestId('account-heading')).toBeVisible();
    await expectNoAxeViolations(page);
    expect(exchanges).toEqual([]);
    await signIn.click();
    const membership = page.getByTestId('membership');
    await expect(membership.getByRole('heading', { name: planOf('standard').name })).toBeVisible();
    // The token left the address bar, and the consumed link is not offered again.
    expect(new URL(page.url()).search).toBe('');
    expect(exchanges).toEqual(['POST']);
    await expect(membership.getByTestId('membership-status')).toHaveText('Active');
    await expect(membership.getByTestId('membership-payments')).toContainText('Payment 1');
    await expect(membership.getByTestId('membership-payments')).toContainText(priceOf('standard'));
    await expectNoAxeViolations(page);

    await membership.getByRole('button', { name: 'Cancel membership' }).click();
    const dialog = page.getByTestId('cancel-dialog');
    await expect(dialog.getByRole('heading', { name: 'Before you go' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep my membership' })).toBeFocused();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'No thanks, cancel' }).click();
    await expect(membership.getByTestId('membership-status')).toHaveText(/^Canceling on [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(await intlFormattingCalls(page), 'amounts and dates are formatted without an Intl formatter').toEqual([]);

    await membership.getByRole('button', { name: 'Resume membership' }).click();
    await expect(membership.getByTestId('membership-status')).toHaveText('Active');
    await expect(membership.getByRole('button', { name: 'Cancel membership' })).toBeVisible();

    await membership.getByRole('button', { name: 'Update card' }).click();
    await membership.getByLabel('Card number').fill('5555 5555 5555 4444');
    await membership.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await membership.getByLabel('CVC').fill('123');
    await expectNoAxeViolations(page);
    await membership.getByRole('button', { name: 'Save card' }).click();
    await expect(membership.getByTestId('membership-notice')).toHaveText('Your new card will be used for the next payments.');

    // Reloaded, the page still shows the state from the server (the session cookie, not the link).
    await page.reload();
    await expect(page.getByTestId('membership').getByTestId('membership-status')).toHaveText('Active');
  });

  test('a used link says so and shows the form again; an unknown address gets the same answer and no e-mail', async ({ page }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail('account-reuse');
    await buyStandard(page, email);
    const path = await requestSignInLink(page, email);
    await page.goto(path);
    await page.getByRole('button', { name: 'Sign in to your account' }).click();
    await expect(page.getByTestId('membership')).toBeVisible();

    await page.context().clearCookies();
    await page.goto(path);
    await page.getByRole('button', { name: 'Sign in to your account' }).click();
    await expect(page.getByTestId('account-link-error')).toHaveText(
      'This sign-in link has expired or was already used. Please ask for a new one below.',
    );
    await expect(page.getByRole('button', { name: 'Send me a sign-in link' })).toBeVisible();

    const stranger = uniqueEmail('account-stranger');
    await page.getByLabel('Email address').fill(stranger);
    const asked = await databaseNow();
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect(page.getByTestId('account-link-outcome')).toContainText('If this address has a membership');
    // The request owes its e-mail job either way (the answer gives nothing away); once the job has run, no mail came.
    await jobsEndedSince(JOBS.accountLinkEmail, asked);
    expect(await mailTo(stranger)).toHaveLength(0);
  });
});
