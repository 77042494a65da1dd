import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { uniqueEmail } from './support/landing';
import { holdClock, settle } from './support/page-clock';
import {
  answerInvitationGate,
  currentPathAndQuery,
  fillInvitation,
  inviteeSession,
  isGateRequest,
  openInvitation,
} from './support/invitation';

const overlay = (page: Page) => page.getByTestId('invitation-overlay');

/** The overlay's phase after the clock moves `ms` on from where the test holds it. */
async function phaseAfter(page: Page, ms: number): Promise<string | null> {
  await settle(page);
  await page.clock.runFor(ms);
  await settle(page);
  return (await overlay(page).count()) === 0 ? null : overlay(page).getAttribute('data-phase');
}

const overlayStyle = (page: Page) =>
  overlay(page).evaluate((element) => {
    const style = getComputedStyle(element);
    return { opacity: style.opacity, transition: style.transitionDuration };
  });

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const rootOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).overflow);

test.describe('/invitation: the overlay', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 640 });
  });

  test('nothing at 50 px; past 50 px it shows with scroll locked, fades after 2000 ms, is gone 1000 ms later with scroll back, and never returns', async ({
    page,
  }) => {
    await page.clock.install();
    await openInvitation(page);
    await page.evaluate(() => window.scrollTo(0, 50));
    await page.waitForTimeout(300);
    await expect(overlay(page)).toHaveCount(0);

    await holdClock(page);
    await page.evaluate(() => window.scrollTo(0, 51));
    await expect(overlay(page)).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Are you one of us?');
    await expect(overlay(page)).toHaveAttribute('data-phase', 'showing');
    expect(await rootOverflow(page)).toBe('hidden');
    await page.mouse.move(195, 320);
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(200);
    expect(await scrollY(page)).toBe(51);

    expect(await phaseAfter(page, 1990)).toBe('showing');
    expect(await phaseAfter(page, 10)).toBe('fading');
    expect(await rootOverflow(page)).toBe('hidden');
    expect(await phaseAfter(page, 990)).toBe('fading');
    expect(await phaseAfter(page, 10)).toBeNull();
    await page.clock.resume();

    expect(await rootOverflow(page)).not.toBe('hidden');
    await page.mouse.wheel(0, 300);
    await expect.poll(() => scrollY(page)).toBeGreaterThan(51);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.scrollTo(0, 200));
    await page.waitForTimeout(400);
    await expect(overlay(page)).toHaveCount(0);
  });

  test('with reduced motion it does not fade but keeps the same timings', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await openInvitation(page);
    await holdClock(page);
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(overlay(page)).toBeVisible();
    expect(await phaseAfter(page, 1990)).toBe('showing');
    expect(await phaseAfter(page, 10)).toBe('fading');
    expect(await overlayStyle(page)).toEqual({ opacity: '1', transition: '0s' });
    expect(await phaseAfter(page, 990)).toBe('fading');
    expect(await phaseAfter(page, 10)).toBeNull();
  });

  test('without reduced motion the fading overlay turns transparent over 1 s', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.clock.install();
    await openInvitation(page);
    await holdClock(page);
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(overlay(page)).toBeVisible();
    expect(await phaseAfter(page, 2000)).toBe('fading');
    expect((await overlayStyle(page)).transition).toBe('1s');
  });
});

test.describe('/invitation: the form', () => {
  test('has its heading and four labelled fields; the heading takes focus', async ({ page }) => {
    await openInvitation(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Your Invitation Awaits.' })).toBeFocused();
    const form = page.getByRole('form', { name: 'Your Invitation Awaits.' });
    for (const label of ['Full Name', 'Email Address', 'Phone Number (optional)', 'Invited By (optional)']) {
      await expect(form.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(form.getByRole('button', { name: 'Unlock My Access' })).toBeEnabled();
  });

  test('validates name (at least 2 characters) and e-mail before sending anything', async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (request) => isGateRequest(request) && sent.push(request.url()));
    await openInvitation(page);
    await fillInvitation(page, { name: 'A', email: 'not-an-email' });
    await page.getByRole('button', { name: 'Unlock My Access' }).click();
    await expect(page.getByTestId('name-error')).toHaveText('Please enter your full name');
    await expect(page.getByTestId('email-error')).toHaveText('Please enter a valid email address');
    await expect(page.getByLabel('Full Name')).toBeFocused();
    await expect(page.getByLabel('Full Name')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Full Name').fill('Al');
    await expect(page.getByTestId('name-error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Unlock My Access' }).click();
    await expect(page.getByLabel('Email Address')).toBeFocused();
    await expect(page.getByTestId('email-error')).toBeVisible();
    expect(sent).toHaveLength(0);
  });

  test('the real gate: Sending... while submitting, then /blackcard with the token, which is validated, stored and taken out of the address bar', async ({
    page,
  }) => {
    const email = uniqueEmail('invite');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const gateBodies: unknown[] = [];
    await page.route('**/api/invitation-gate', async (route) => {
      gateBodies.push(route.request().postDataJSON());
      await held;
      await route.continue();
    });
    const gateResponse = page.waitForResponse((response) => isGateRequest(response.request()));
    await openInvitation(page);
    await fillInvitation(page, { name: 'Avery Invitee', email, phone: '', invitedBy: 'Jordan' });
    await page.getByRole('button', { name: 'Unlock My Access' }).click();
    const pending = page.getByTestId('invitation-submit');
    await expect(pending).toHaveText('Sending...');
    await expect(pending).toBeDisabled();
    release();

    await page.waitForURL((url) => url.pathname === '/blackcard');
    expect(gateBodies).toEqual([{ name: 'Avery Invitee', email, invitedBy: 'Jordan' }]);
    const issuedToken = ((await (await gateResponse).json()) as { accessToken: string }).accessToken;
    expect(issuedToken.length).toBeGreaterThanOrEqual(22);
    await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
    await expect.poll(() => currentPathAndQuery(page)).toBe('/blackcard');
    expect(await inviteeSession(page)).toEqual({ token: issuedToken, email, name: 'Avery Invitee' });
    // The token left the history entry too: a reload works from the stored session alone.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
  });

  test.describe('screen: the form on a stubbed gate answer', () => {
    test('sends the referral when one is known, and all four fields when given', async ({ page }) => {
      const bodies = await answerInvitationGate(page, 201, { accessToken: 'tok_stub' });
      await page.route('**/api/validate-token/*', (route) => route.fulfill({ status: 404, body: '' }));
      await openInvitation(page, '?via=partner-anna');
      await fillInvitation(page, { name: 'Avery Invitee', email: 'avery@example.com', phone: '+1 555 0100', invitedBy: 'Jordan' });
      await page.getByRole('button', { name: 'Unlock My Access' }).click();
      await expect.poll(() => bodies.length).toBe(1);
      expect(bodies).toEqual([
        { name: 'Avery Invitee', email: 'avery@example.com', phone: '+1 555 0100', invitedBy: 'Jordan', referral: 'partner-anna' },
      ]);
    });

    test('a token in the answer leads to /blackcard?token=…', async ({ page }) => {
      await answerInvitationGate(page, 201, { accessToken: 'tok/with+chars' });
      const urls: string[] = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && urls.push(frame.url()));
      await page.route('**/api/validate-token/*', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: '{"email":"a@example.com","name":"Avery"}' }),
      );
      await openInvitation(page);
      await fillInvitation(page, { name: 'Avery', email: 'a@example.com' });
      await page.getByRole('button', { name: 'Unlock My Access' }).click();
      await expect(page.getByRole('heading', { level: 1, name: "YOU'VE BEEN INVITED TO THE 11 MILLION" })).toBeVisible();
      expect(
        urls.map((url) => new URL(url)).some((url) => url.pathname === '/blackcard' && url.search === '?token=tok%2Fwith%2Bchars'),
      ).toBe(true);
    });

    test('e-mail delivery (an answer without token): the Success! toast and the confirmation view replace the form', async ({ page }) => {
      await answerInvitationGate(page, 201, {});
      await openInvitation(page);
      await fillInvitation(page, { name: 'Avery', email: 'a@example.com' });
      await page.getByRole('button', { name: 'Unlock My Access' }).click();
      const toast = page.getByTestId('toast');
      await expect(toast).toContainText('Success!');
      await expect(toast).toContainText('Check your email for your private access link.');
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Movement' })).toBeFocused();
      const view = page.getByTestId('invitation-confirmation');
      await expect(view).toContainText('Check your email for your private access link.');
      await expect(view).toContainText('Your invitation contains everything you need to begin.');
      await expect(page.getByTestId('invitation-form')).toHaveCount(0);
      expect(currentPathAndQuery(page)).toBe('/invitation');
    });

    const failures = [
      {
        what: 'a message from the server',
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'Please enter a valid email address' },
        shown: 'Please enter a valid email address',
      },
      {
        what: 'a rate limit message',
        status: 429,
        body: { statusCode: 429, error: 'Too Many Requests', message: 'Too many requests. Please wait a minute and try again.' },
        shown: 'Too many requests. Please wait a minute and try again.',
      },
      { what: 'no message', status: 500, body: '', shown: 'Failed to submit invitation' },
    ];
    for (const { what, status, body, shown } of failures) {
      test(`a ${status} with ${what}: the 'Error' toast says "${shown}" and the form stays filled in`, async ({ page }) => {
        await answerInvitationGate(page, status, body);
        await openInvitation(page);
        await fillInvitation(page, { name: 'Avery', email: 'a@example.com', invitedBy: 'Jordan' });
        await page.getByRole('button', { name: 'Unlock My Access' }).click();
        const alert = page.getByRole('alert').filter({ hasText: 'Error' });
        await expect(alert).toContainText(shown);
        await expect(page.getByLabel('Full Name')).toHaveValue('Avery');
        await expect(page.getByLabel('Invited By (optional)')).toHaveValue('Jordan');
        await expect(page.getByRole('button', { name: 'Unlock My Access' })).toBeEnabled();
        expect(new URL(page.url()).pathname).toBe('/invitation');
      });
    }

    test("a network failure: 'Something went wrong. Please try again.'", async ({ page }) => {
      await page.route('**/api/invitation-gate', (route) => route.abort('connectionrefused'));
      await openInvitation(page);
      await fillInvitation(page, { name: 'Avery', email: 'a@example.com' });
      await page.getByRole('button', { name: 'Unlock My Access' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Error' })).toContainText('Something went wrong. Please try again.');
      await expect(page.getByRole('button', { name: 'Unlock My Access' })).toBeEnabled();
    });

    test('is usable from the keyboard alone', async ({ page }) => {
      await answerInvitationGate(page, 201, {});
      await openInvitation(page);
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Full Name')).toBeFocused();
      await page.keyboard.type('Avery Keys');
      await page.keyboard.press('Tab');
      await page.keyboard.type('keys@example.com');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Movement' })).toBeVisible();
    });
  });
});

test('/invitation has no axe violations at 390 px, with the overlay up and after', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openInvitation(page);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/invitation-390.png', fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 120));
  await expect(overlay(page)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: 'test-results/screenshots/invitation-overlay-390.png' });
});
