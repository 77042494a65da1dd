import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { followHandOffLink, handOffOf } from './support/checkout';
import { answerTokenValidation, currentPathAndQuery, inviteeSession, seedInviteeSession } from './support/invitation';
import { uniqueEmail } from './support/landing';
import { priceOf, siteCopy } from './support/seller-site';

const blackcardCopy = siteCopy<{ finalCall: { cta: string }; path: { tiers: { price: string; note: string }[] } }>('copy/blackcard.json');
const HEADING = "YOU'VE BEEN INVITED TO THE 11 MILLION";
const SESSION = { blackcard_token: 'tok_session', blackcard_email: 'avery@example.com', blackcard_name: 'Avery Example' };
const SESSION_CHECKOUT = '/checkout?plan=standard&source=blackcard&token=tok_session&email=avery%40example.com&name=Avery+Example';

async function expectContent(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
}

async function ctaTargets(page: Page): Promise<string[]> {
  return [
    (await page.getByRole('link', { name: 'Begin Your Ascent — Start Your First 30-Day Game' }).getAttribute('href')) ?? '',
    (await page.getByRole('link', { name: blackcardCopy.finalCall.cta }).getAttribute('href')) ?? '',
  ];
}

test.describe('/blackcard access', () => {
  test('an unknown token (the real API answers 404) → /invitation, nothing stored', async ({ page }) => {
    await page.goto('/blackcard?token=not-a-real-token-0000000000000000');
    await page.waitForURL((url) => url.pathname === '/invitation');
    expect(await inviteeSession(page)).toEqual({ token: null, email: null, name: null });
  });

  test('no token and no stored session → /invitation, replacing the history entry', async ({ page }) => {
    await page.goto('/');
    await page.goto('/blackcard');
    await page.waitForURL((url) => url.pathname === '/invitation');
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
  });

  for (const missing of Object.keys(SESSION) as (keyof typeof SESSION)[]) {
    test(`a stored session without ${missing} → /invitation`, async ({ page }) => {
      const partial: Partial<typeof SESSION> = { ...SESSION };
      delete partial[missing];
      await seedInviteeSession(page, partial);
      await page.goto('/blackcard');
      await page.waitForURL((url) => url.pathname === '/invitation');
    });
  }

  test.describe('screen: access on a stubbed token check', () => {
    test('a complete stored session opens the page without asking the server', async ({ page }) => {
      const asked = await answerTokenValidation(page, null);
      await seedInviteeSession(page, SESSION);
      await page.goto('/blackcard');
      await expectContent(page);
      expect(asked).toEqual([]);
      expect(await ctaTargets(page)).toEqual([SESSION_CHECKOUT, SESSION_CHECKOUT]);
    });

    test("a query token: 'Verifying access...', then the page; saved to session storage and removed from the address bar, the rest of the query kept", async ({
      page,
    }) => {
      const asked = await answerTokenValidation(page, { email: 'new@example.com', name: 'New Invitee' }, 800);
      await seedInviteeSession(page, SESSION);
      await page.goto('/blackcard?utm_source=mail&token=tok_query&x=1');
      await expect(page.getByRole('status')).toContainText('Verifying access...');
      await expectContent(page);
      expect(asked).toEqual(['tok_query']);
      await expect.poll(() => currentPathAndQuery(page)).toBe('/blackcard?utm_source=mail&x=1');
      expect(await inviteeSession(page)).toEqual({ token: 'tok_query', email: 'new@example.com', name: 'New Invitee' });
      const expected = '/checkout?plan=standard&source=blackcard&token=tok_query&email=new%40example.com&name=New+Invitee';
      expect(await ctaTargets(page)).toEqual([expected, expected]);
      expect(await followHandOffLink(page, page.getByRole('link', { name: 'Begin Your Ascent — Start Your First 30-Day Game' }))).toBe(
        expected,
      );
      expect(await handOffOf(page)).toEqual({
        plan: 'standard',
        source: 'blackcard',
        token: 'tok_query',
        email: 'new@example.com',
        name: 'New Invitee',
      });
    });

    test('the query token wins over a stored session, and an invalid one sends to /invitation even with a session', async ({ page }) => {
      await answerTokenValidation(page, null);
      await seedInviteeSession(page, SESSION);
      await page.goto('/blackcard?token=tok_bad');
      await page.waitForURL((url) => url.pathname === '/invitation');
    });

    test('a network error while validating → /invitation', async ({ page }) => {
      await page.route('**/api/validate-token/*', (route) => route.abort('connectionrefused'));
      await page.goto('/blackcard?token=tok_offline');
      await page.waitForURL((url) => url.pathname === '/invitation');
    });

    test('a valid token whose invitee has no name: the CTAs lead to /invitation', async ({ page }) => {
      await answerTokenValidation(page, { email: 'a@example.com', name: '' });
      await page.goto('/blackcard?token=tok_noname');
      await expectContent(page);
      expect(await ctaTargets(page)).toEqual(['/invitation', '/invitation']);
    });
  });
});

test.describe('/blackcard with a token the server has checked', () => {
  /** A real invitation through the API (the e2e stack delivers instantly, so the answer carries the token). */
  async function realInvitation(page: Page, name: string): Promise<{ token: string; email: string }> {
    const email = uniqueEmail('granted');
    const response = await page.request.post('/api/invitation-gate', { data: { name, email, phone: '', invitedBy: '' } });
    expect(response.status()).toBe(201);
    const { accessToken } = (await response.json()) as { accessToken?: string };
    expect(typeof accessToken).toBe('string');
    return { token: accessToken as string, email };
  }

  test('the document already holds the content and the invitee; the browser asks nothing and hydrates it as sent', async ({ page }) => {
    // A name that would break out of a script element, were it not escaped.
    const name = 'Avery </script><script>window.injected=1</script> $& Example';
    const { token, email } = await realInvitation(page, name);

    const sent = await page.request.get(`/blackcard?utm_source=mail&token=${token}`, { headers: { accept: 'text/html' } });
    expect(sent.status()).toBe(200);
    expect(sent.headers()['cache-control']).toBe('no-store');
    const html = await sent.text();
    expect(html).toContain('YOU&#x27;VE BEEN INVITED TO THE 11 MILLION');
    expect(html).not.toContain('Verifying access...');
    expect(html).not.toContain('</script><script>window.injected');

    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/validate-token/')) asked.push(request.url());
    });
    // The spinner must never show: watch for it from before the first byte is parsed.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="blackcard-verifying"]')) (window as { sawSpinner?: boolean }).sawSpinner = true;
      }).observe(document, { childList: true, subtree: true });
    });

    await page.goto(`/blackcard?utm_source=mail&token=${token}`);
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeFocused();
    await expect.poll(() => currentPathAndQuery(page)).toBe('/blackcard?utm_source=mail');
    expect(await inviteeSession(page)).toEqual({ token, email, name });
    const expected = `/checkout?${new URLSearchParams({ plan: 'standard', source: 'blackcard', token, email, name }).toString()}`;
    expect(await ctaTargets(page)).toEqual([expected, expected]);
    const seen = await page.evaluate(() => {
      const marks = window as { sawSpinner?: boolean; injected?: number };
      return { spinner: marks.sawSpinner ?? false, injected: marks.injected ?? null };
    });
    expect(seen).toEqual({ spinner: false, injected: null });
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test('the granted page shows its content before any island code is asked for: its islands wait for the first frame', async ({ page }) => {
    const { token } = await realInvitation(page, 'Avery Frame');
    // Frames are held back until the test lets them go: nothing the page schedules on one runs before then.
    await page.addInitScript(() => {
      const frame = window.requestAnimationFrame.bind(window);
      const held: FrameRequestCallback[] = [];
      let holding = true;
      window.requestAnimationFrame = (callback) => (holding ? held.push(callback) : frame(callback));
      (window as { releaseFrames?: () => void }).releaseFrames = () => {
        holding = false;
        for (const callback of held.splice(0)) frame(callback);
      };
    });
    const islandCode: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/^\/assets\/(islands|blackcard-islands|blackcard-page)-/.test(path)) islandCode.push(path);
    });

    await page.goto(`/blackcard?token=${token}`);
    await expectContent(page);
    await page.waitForLoadState('networkidle');
    expect(islandCode, 'no island code before the first frame').toEqual([]);

    await page.evaluate(() => (window as { releaseFrames?: () => void }).releaseFrames?.());
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeFocused();
    expect(islandCode).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/assets\/islands-/), expect.stringMatching(/^\/assets\/blackcard-islands-/)]),
    );
  });

  test('an unknown well-formed token gets the verifying document, then /invitation', async ({ page }) => {
    const unknown = 'A'.repeat(43);
    const html = await (await page.request.get(`/blackcard?token=${unknown}`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('Verifying access...');
    expect(html).not.toContain('YOU&#x27;VE BEEN INVITED');
    await page.goto(`/blackcard?token=${unknown}`);
    await page.waitForURL((url) => url.pathname === '/invitation');
  });
});

test.describe('/blackcard content', () => {
  test.beforeEach(async ({ page }) => {
    await seedInviteeSession(page, SESSION);
  });

  test('every section: Level 1, The Mechanism, the tier cards, three quotes and a footer', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/blackcard');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeFocused();
    await expect(page.getByTestId('blackcard-level-one')).toContainText('The Gateway');
    await expect(page.getByTestId('blackcard-level-one')).toContainText('30-Day Game');
    await expect(page.getByTestId('blackcard-level-one')).toContainText(priceOf('standard'));

    const mechanism = page.getByTestId('blackcard-mechanism');
    await expect(mechanism.getByRole('heading', { level: 2 })).toHaveText('The Mechanism');
    await expect(mechanism.getByRole('heading', { level: 3 })).toHaveText([
      'Choose Your Domain',
      'Set Your Intention',
      'Play the Game',
      'Ascend',
    ]);
    await expect(mechanism.getByRole('list', { name: 'Domains' }).getByRole('listitem')).toHaveText([
      'Money',
      'Love',
      'Health',
      'Career',
      'Peace',
    ]);
    await expect(mechanism).toContainText('present tense');
    await expect(mechanism).toContainText('measurable');
    await expect(mechanism).toContainText('one aligned action a day');

    const path = page.getByTestId('blackcard-path');
    await expect(path.getByRole('heading', { level: 2 })).toHaveText('The Path of Ascension');
    const tiers = path.getByTestId('blackcard-tier');
    await expect(tiers).toHaveCount(5);
    await expect(tiers.nth(0)).toContainText('Player');
    await expect(tiers.nth(0)).toContainText(priceOf('standard'));
    await expect(tiers.nth(1)).toContainText("The Owner's Manual for Human Being");
    await expect(tiers.nth(1)).toContainText('Junior GOAT');
    await expect(tiers.nth(2)).toContainText('Black Card Experience');
    await expect(tiers.nth(2)).toContainText('Path to GOAT');
    await expect(tiers.nth(2)).toContainText(blackcardCopy.path.tiers[2].price);
    await expect(tiers.nth(3)).toContainText('Full GOAT');
    await expect(tiers.nth(3)).toContainText('Earned, not bought');
    await expect(tiers.nth(4)).toContainText('Invite only');
    await expect(tiers.nth(4)).toContainText(blackcardCopy.path.tiers[4].note);

    await expect(page.getByTestId('blackcard-testimonials').locator('blockquote')).toHaveCount(3);
    await expect(page.getByRole('contentinfo')).toBeVisible();
  });

  test('sections below the fold are hidden until 10% of them is visible above a 100 px bottom margin, then revealed', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto('/blackcard');
    await expectContent(page);
    const section = page.getByTestId('blackcard-final-call');
    await expect(section).toHaveAttribute('data-reveal', 'waiting');
    expect(await section.evaluate((element) => getComputedStyle(element).opacity)).toBe('0');
    // Short enough that 90 px of it is more than 10%: only the -100 px margin keeps it waiting below.
    expect(await section.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(900);

    await section.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - (window.innerHeight - 90)));
    await page.waitForTimeout(400);
    await expect(section).toHaveAttribute('data-reveal', 'waiting');
    await section.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - window.innerHeight / 2));
    await expect(section).toHaveAttribute('data-reveal', 'shown');
    await expect.poll(() => section.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  });

  test('with reduced motion nothing is hidden or animated', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto('/blackcard');
    await expectContent(page);
    for (const name of ['level-one', 'mechanism', 'path', 'testimonials', 'final-call']) {
      const section = page.getByTestId(`blackcard-${name}`);
      await expect(section).toHaveAttribute('data-reveal', 'static');
      expect(await section.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    }
  });

  test('without an IntersectionObserver every section is still visible', async ({ page }) => {
    await page.addInitScript(() => Reflect.deleteProperty(window, 'IntersectionObserver'));
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/blackcard');
    await expectContent(page);
    await expect(page.getByTestId('blackcard-final-call')).toHaveAttribute('data-reveal', 'static');
    expect(await page.getByTestId('blackcard-final-call').evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  });

  test('no axe violations at 390 px', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/blackcard');
    await expectContent(page);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-results/screenshots/blackcard-390.png', fullPage: true });
  });
});
