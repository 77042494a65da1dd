import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { JOBS } from '@contracts/jobs';
import { formatMoney } from '@contracts/money';
import { CURRENCY, planOf } from '@contracts/plans';
import { fill } from '@contracts/site/site-copy';
import { useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { paidOrderOnOrdersScreen } from './support/admin-orders';
import { databaseNow, jobsEndedSince } from './support/db';
import { mailTo, waitForMail } from './support/mail';
import { adminMoney, siteCopy } from './support/seller-site';

/**
 * The admin's orders screen on a phone-sized screen: a sandbox purchase, then the admin signs in,
 * finds the order, refunds its payment through the confirmation dialog and sees it refunded; the
 * buyer's refund e-mail arrives, once.
 */
const tag = randomBytes(6).toString('hex');
const buyer = { email: `refund.buyer.${tag}@example.com`, name: `Riley Refund ${tag}` };
const admin = useAdminAccount('refunds');
const plan = planOf('full-payment');
const paid = adminMoney(plan.amount);
/** Three units more than was paid ($1,000.00 on $997.00). */
const tooMuch = plan.amount + 3;
const refundMail = siteCopy<{ subject: string }>('emails/refund.json');

test.use({ viewport: { width: 390, height: 844 } });

test('a sandbox purchase is refunded from the orders screen, and the buyer is e-mailed about it', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const card = await paidOrderOnOrdersScreen(page, browser, { plan: 'full-payment', buyer, admin });
  await expect(card.getByRole('heading', { name: `${buyer.email} · ${plan.name}` })).toBeVisible();
  await expectNoAxeViolations(page);

  await card.getByRole('button', { name: 'Refund payment 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund payment 1' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(`Full refund (${paid})`)).toBeChecked();
  // A partial amount above what was paid is refused in the dialog, before anything is sent.
  await dialog.getByLabel('Partial refund').check();
  await dialog.getByLabel(`Amount in ${CURRENCY}`).fill(String(tooMuch));
  await dialog.getByRole('button', { name: `Refund ${adminMoney(tooMuch)}`, exact: true }).click();
  await expect(dialog.getByText(`Enter an amount from ${formatMoney(1, CURRENCY, { decimals: 'always' })} up to ${paid}.`)).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel(`Full refund (${paid})`).check();
  const refunding = await databaseNow();
  await dialog.getByRole('button', { name: `Refund ${paid}` }).dblclick();

  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Refunded ${paid}`, { exact: true })).toBeVisible();
  await expect(card.getByText(`${paid} refund, succeeded, by ${admin.email}`)).toBeVisible();
  await expect(card.getByText('Refunded in full')).toBeVisible();

  const [mail] = await waitForMail(buyer.email, /refund/i);
  expect(mail.subject).toBe(fill(refundMail.subject, { amount: paid }));
  expect(mail.text).toContain('/account');
  expect(mail.html).toContain(buyer.name);
  // Every refund owed since the click has had its effects (a second refund would have its own e-mail): now count.
  await jobsEndedSince(JOBS.refundRecorded, refunding);
  expect((await mailTo(buyer.email)).filter((m) => /refund/i.test(m.subject ?? ''))).toHaveLength(1);
});
