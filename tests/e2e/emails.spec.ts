import { expect, test } from '@playwright/test';
import { JOBS } from '@contracts/jobs';
import { planOf } from '@contracts/plans';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { databaseNow, jobsEndedSince } from './support/db';
import { fillInvitation, openInvitation } from './support/invitation';
import { uniqueEmail } from './support/landing';
import { mailTo, waitForMail } from './support/mail';
import { priceOf, siteCopy } from './support/seller-site';

const welcome = siteCopy<{ welcome: { heading: string } }>('copy/success.json').welcome.heading;

/** E-mails the worker sends through SMTP, read back from the test run's SMTP sink. */
test.describe('e-mails', () => {
  test('a paid order sends one receipt, however often the success page is reloaded', async ({ page }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail('receipt');
    const paying = await databaseNow();
    await page.goto(checkoutUrl({ plan: 'full-payment', email, name: 'Robin Receipt' }));
    await fillSandboxCard(page, CARDS.success);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success');
    await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
    for (let i = 0; i < 3; i++) {
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
    }

    const [receipt] = await waitForMail(email, /receipt/i);
    expect(receipt.subject).toContain(planOf('full-payment').name);
    expect(receipt.text).toContain(priceOf('full-payment'));
    expect(receipt.html).toContain('Robin Receipt');
    // Count once every job that could send a second one has ended: the payment events the
    // sandbox stored, then the order-paid jobs they owed.
    for (const job of [JOBS.paymentEvent, JOBS.orderPaid]) await jobsEndedSince(job, paying);
    expect((await mailTo(email)).filter((m) => /receipt/i.test(m.subject ?? ''))).toHaveLength(1);
  });

  test("the invitation e-mail's private link opens /blackcard in a browser that never saw the form", async ({ page, browser, baseURL }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail('invite-mail');
    await openInvitation(page);
    await fillInvitation(page, { name: 'Morgan Mail', email });
    await page.getByRole('button', { name: 'Unlock My Access' }).click();
    await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();

    const [invitation] = await waitForMail(email, /invitation/i);
    const link = invitation.text?.match(/https?:\/\/\S+\/blackcard\?token=[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeTruthy();
    expect(invitation.html).toContain(link!.replace(/&/g, '&#38;'));

    const fresh = await browser.newContext();
    const visitor = await fresh.newPage();
    const target = new URL(link!);
    await visitor.goto(new URL(`${target.pathname}${target.search}`, baseURL).toString());
    await expect(visitor.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
    // The server sent the page granted; the session is kept once React owns it.
    await expect.poll(() => visitor.evaluate(() => sessionStorage.getItem('blackcard_email'))).toBe(email);
    await fresh.close();
    expect(await mailTo(email)).toHaveLength(1);
  });

  test('with e-mail delivery the gate shows the confirmation view, and the link from the received e-mail opens /blackcard', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const emailModeUrl = process.env.E2E_EMAIL_MODE_URL;
    if (!emailModeUrl) throw new Error('E2E_EMAIL_MODE_URL is not set: run the browser tests through "npm test"');
    const email = uniqueEmail('invite-email-mode');
    await page.goto(`${emailModeUrl}/invitation`);
    await expect(page.getByRole('heading', { level: 1, name: 'Your Invitation Awaits.' })).toBeVisible();
    await fillInvitation(page, { name: 'Emery Email', email });
    await page.getByRole('button', { name: 'Unlock My Access' }).click();
    await expect(page.getByText('Welcome to the Movement')).toBeVisible();
    await expect(page.getByText('Check your email for your private access link.').first()).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/invitation');
    expect(await page.evaluate(() => sessionStorage.getItem('blackcard_token'))).toBeNull();

    const [invitation] = await waitForMail(email, /invitation/i);
    const link = new URL(invitation.text?.match(/https?:\/\/\S+\/blackcard\?token=[A-Za-z0-9_-]+/)?.[0] ?? 'http://missing/');
    expect(link.pathname).toBe('/blackcard');
    await page.goto(new URL(`${link.pathname}${link.search}`, baseURL).toString());
    await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('blackcard_name'))).toBe('Emery Email');
  });
});
