import { expect, test } from '@playwright/test';
import { CARDS, fillSandboxCard, followHandOffLink, payButton } from './support/checkout';
import { fillInvitation, openInvitation } from './support/invitation';
import { uniqueEmail } from './support/landing';
import { siteCopy } from './support/seller-site';

const blackcardCopy = siteCopy<{ finalCall: { cta: string } }>('copy/blackcard.json');

test("the invite path: /invitation → /blackcard → Level 1 paid in the sandbox → /blackcard-upsell → decline → You're All Set!", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = uniqueEmail('invite-journey');
  await openInvitation(page);
  await fillInvitation(page, { name: 'Avery Journey', email });
  await page.getByRole('button', { name: 'Unlock My Access' }).click();
  await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
  const token = await page.evaluate(() => sessionStorage.getItem('blackcard_token'));
  expect(token).toBeTruthy();

  const checkout = await followHandOffLink(page, page.getByRole('link', { name: blackcardCopy.finalCall.cta }));
  expect(Object.fromEntries(new URL(checkout, page.url()).searchParams)).toEqual({
    plan: 'standard',
    source: 'blackcard',
    token,
    email,
    name: 'Avery Journey',
  });

  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/blackcard-upsell', { timeout: 30_000 });
  const upsell = new URL(page.url());
  expect(upsell.searchParams.get('email')).toBe(email);
  expect(upsell.searchParams.get('name')).toBe('Avery Journey');
  expect(upsell.searchParams.get('token')).toBe(token);
  await expect(page.getByRole('heading', { level: 1, name: 'Level Two: The Ascension Experience' })).toBeVisible();

  const success = await followHandOffLink(page, page.getByRole('link', { name: "No thanks, I'll continue with Level One" }));
  expect(new URL(success, page.url()).searchParams.has('token')).toBe(false);
  await expect(page.getByRole('heading', { level: 1, name: "You're All Set!" })).toBeVisible();
});
