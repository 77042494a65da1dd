import { expect, test } from '@playwright/test';
import { OFFERS } from '@contracts/plans';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { mailTo, waitForMail } from './support/mail';

/**
 * The abandoned-checkout reminder, on the API whose leads owe it after a second: a lead left at
 * the checkout receives it, and its unsubscribe link opens a confirmation whose button
 * unsubscribes (opening the link alone does not).
 */
test.describe('abandoned-checkout reminder', () => {
  test('the unsubscribe link of a received reminder asks first, then unsubscribes', async ({ page }) => {
    test.setTimeout(60_000);
    const reminderUrl = process.env.E2E_REMINDER_MODE_URL;
    if (!reminderUrl) throw new Error('E2E_REMINDER_MODE_URL is not set: run the browser tests through "npm test"');
    const email = uniqueEmail('reminder');
    await page.goto(`${reminderUrl}/`);
    await expect(page.getByTestId('lead-submit')).toBeEnabled();
    const form = page.getByTestId('lead-form');
    await form.getByLabel('Name (Optional)').fill('Riley Reminder');
    await form.getByLabel('Email Address *').fill(email);
    await form.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');

    const [reminder] = await waitForMail(email, /one step away/);
    const checkout = new URL(reminder.text?.match(/https?:\/\/\S+\/checkout\?\S+/)?.[0] ?? 'http://missing/');
    expect(Object.fromEntries(checkout.searchParams)).toEqual({ plan: OFFERS.default.id, email, name: 'Riley Reminder' });
    const link = reminder.text?.match(/Unsubscribe: (https?:\/\/\S+\/api\/unsubscribe\?token=[A-Za-z0-9_.-]+)/)?.[1];
    expect(link).toBeTruthy();
    expect(reminder.headers['list-unsubscribe']).toBe(`<${link}>`);
    expect(reminder.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const suppressed = () =>
      withDb(async (client) => (await client.query('SELECT 1 FROM email_suppressions WHERE email_normalized = $1', [email])).rowCount);
    await page.goto(link!);
    await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from reminders?' })).toBeVisible();
    expect(await suppressed()).toBe(0);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
    expect(await suppressed()).toBe(1);
    expect((await mailTo(email)).filter((m) => /one step away/.test(m.subject ?? ''))).toHaveLength(1);
  });
});
