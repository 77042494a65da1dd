import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatPrice } from '@contracts/money';
import { CURRENCY } from '@contracts/plans';
import { cspSources } from './support/csp';
import { deleteTestimonials, featureTestimonials, insertTestimonials, unfeatureAllTestimonials } from './support/db';
import { openLanding } from './support/landing';
import { pageCopy } from './support/seller-site';

const landing = pageCopy('landing');
const sections = pageCopy('landing-sections');
const TITLE = pageCopy('head').title;
const HEADLINE = landing.hero.headline;
const SECTION_HEADINGS = [
  landing.salesLetter.heading,
  sections.movement.heading,
  sections.methodSection.heading,
  sections.benefits.heading,
  sections.founder.heading,
  landing.testimonialsSection.heading,
  sections.valueStack.heading,
  sections.whyOnly.heading,
  sections.guarantee.badge,
  landing.faq.heading,
  sections.finalCall.heading,
  landing.leadCapture.heading,
];
const CTAS = [
  { testId: 'cta-hero', label: landing.hero.cta },
  { testId: 'cta-value-stack', label: sections.valueStack.cta },
  { testId: 'cta-final-call', label: sections.finalCall.cta },
];
const THIRD_PARTY_MEDIA_AND_PAYMENT =
  /(^|\.)(stripe\.com|stripe\.network|youtube\.com|youtube-nocookie\.com|ytimg\.com|googlevideo\.com|vimeo\.com|vimeocdn\.com)$/;
const screenshotsDir = resolve(__dirname, '../../test-results/screenshots');

/** A stub of our API: `screen:` tests only (README.md). */
async function stubFeaturedTestimonials(page: Page, body: unknown[]): Promise<void> {
  await page.route('**/api/testimonials/featured', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) }),
  );
}

test.describe('landing page', () => {
  test.describe('screen: landing page on a stubbed featured list', () => {
    test('shows one h1 and every section heading in the spec order', async ({ page }) => {
      await stubFeaturedTestimonials(page, [
        { id: 't1', videoUrl: null, imageUrl: null, name: 'Sam Rivera', title: 'Teacher', content: 'It worked.', rating: 5 },
      ]);
      await openLanding(page);
      await expect(page.getByTestId('section-testimonials')).toBeVisible();
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveText(HEADLINE);
      await expect(page.locator('main h2')).toHaveText(SECTION_HEADINGS);
      await expect(page).toHaveTitle(TITLE);

      const lastSection = page.locator('main > section').last();
      await expect(lastSection).toHaveAttribute('id', 'checkout');
      await expect(lastSection).toContainText(landing.leadCapture.intro);
      await expect(lastSection).toContainText(landing.leadCapture.footnote);
    });
  });

  test('hero, method and value stack carry the spec copy and the computed total', async ({ page }) => {
    await openLanding(page);
    const hero = page.getByTestId('section-hero');
    await expect(hero).toContainText('Your transformation starts immediately. No contracts. Cancel anytime.');
    await expect(hero).toContainText(landing.hero.socialProof);
    await expect(page.getByTestId('section-sales-letter')).toContainText('Video Duration: ~5 minutes');

    const steps = page.getByTestId('method-step');
    await expect(steps).toHaveCount(5);
    await expect(steps.locator('h3')).toHaveText(['Create', 'Live', 'Emotionalize', 'Align', 'Release']);
    await expect(steps.nth(2)).toContainText('Emotionalize it constantly');

    const valueStack = page.getByTestId('section-value-stack');
    await expect(valueStack.locator('.offer-item')).toHaveCount(7);
    // Each item's regular value in the site's currency, the priceless one in words, and their sum.
    const values = sections.valueStack.items.map((item) => item.value);
    const total = `${formatPrice(
      values.reduce((sum, value) => sum + value, 0),
      CURRENCY,
    )}+`;
    await expect(valueStack.locator('s')).toHaveText([
      ...values.filter((value) => value > 0).map((value) => formatPrice(value, CURRENCY)),
      total,
    ]);
    await expect(valueStack).toContainText(sections.valueStack.priceless);
    await expect(page.getByTestId('value-stack-total')).toHaveText(total);
    await expect(valueStack).toContainText(sections.valueStack.yourPrice);
    await expect(page.getByTestId('section-guarantee')).toContainText("I'll give you every penny back.");
  });

  test('FAQ keeps at most one answer open, with the mouse', async ({ page }) => {
    await openLanding(page);
    const faq = page.getByTestId('section-faq');
    const questions = faq.locator('button[aria-expanded]');
    await expect(questions).toHaveCount(6);
    const [first, third] = [questions.nth(0), questions.nth(2)];

    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await expect(faq.getByRole('region', { name: landing.faq.items[0].question })).toBeVisible();

    await third.click();
    await expect(third).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    const timeAnswer = page.locator(`#${await third.getAttribute('aria-controls')}`);
    await expect(timeAnswer).toBeVisible();
    await expect(timeAnswer).toContainText('15-20 minutes daily');
    await expect(faq.locator('[role="region"]:visible')).toHaveCount(1);

    await third.click();
    await expect(third).toHaveAttribute('aria-expanded', 'false');
    await expect(timeAnswer).toBeHidden();
    await expect(faq.locator('[role="region"]:visible')).toHaveCount(0);
  });

  test('FAQ is operable with the keyboard (Tab, Enter, Space)', async ({ page }) => {
    await openLanding(page);
    const questions = page.getByTestId('section-faq').locator('button[aria-expanded]');
    await questions.nth(0).focus();
    await page.keyboard.press('Enter');
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');

    await page.keyboard.press('Tab');
    await expect(questions.nth(1)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'true');
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Space');
    await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'false');
  });

  for (const cta of CTAS) {
    test(`"${cta.label}" brings the lead form into view and focuses the e-mail field`, async ({ page }) => {
      await openLanding(page);
      const link = page.getByRole('link', { name: cta.label, exact: true });
      await expect(link).toHaveAttribute('data-testid', cta.testId);
      const email = page.getByLabel('Email Address *');
      await link.scrollIntoViewIfNeeded();
      await expect(email).not.toBeInViewport();
      await link.click();
      await expect(page.locator('#checkout')).toBeInViewport();
      await expect(email).toBeFocused();
      await expect(email).toBeInViewport();
    });
  }

  test('the CTA jumps without animation when the visitor prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openLanding(page);
    await page.getByTestId('cta-hero').click();
    const top = await page.locator('#checkout').evaluate((section) => section.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(2);
  });

  test('the sales letter video loads the player only when asked to', async ({ page }) => {
    await page.route(/youtube-nocookie\.com/, (route) => route.abort());
    await openLanding(page);
    const section = page.getByTestId('section-sales-letter');
    await expect(section.locator('iframe')).toHaveCount(0);
    await section.getByRole('button', { name: 'Play the video: Watch This Important Message' }).click();
    await expect(section.locator('iframe')).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\/[^?]+\?.*autoplay=1/);
  });

  test('the initial load touches neither Stripe nor the video host, nor any other third party, and asks no consent', async ({
    page,
    baseURL,
  }) => {
    const requested: URL[] = [];
    page.on('request', (request) => requested.push(new URL(request.url())));
    await page.goto('/', { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    const hosts = requested.map((url) => url.hostname);

    expect(hosts.filter((host) => THIRD_PARTY_MEDIA_AND_PAYMENT.test(host))).toEqual([]);
    // The test build configures no analytics or affiliate ids, so nothing may leave the origin.
    const ownHost = new URL(baseURL ?? 'http://127.0.0.1:3000').hostname;
    expect(hosts.filter((host) => host !== ownHost)).toEqual([]);
    await expect(page.locator('iframe')).toHaveCount(0);
    // Nothing to consent to, so no consent banner or settings, and neither their code nor the vendors' is fetched.
    await expect(page.getByTestId('lead-submit')).toBeEnabled();
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cookie settings' })).toHaveCount(0);
    expect(requested.map((url) => url.pathname).filter((path) => /consent|vendors/.test(path))).toEqual([]);
  });

  test('the prerendered HTML already holds the landing page; its one inline script runs only by its hash in the CSP', async ({
    request,
  }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    const html = await response.text();
    const text = html.replaceAll('&#x27;', "'").replaceAll('&amp;', '&');
    expect(text).toContain(`<h1 id="hero-heading">${HEADLINE}</h1>`);
    expect(text).toContain(sections.valueStack.heading);
    expect(text).toContain('id="checkout"');
    expect(text).toContain(`<title>${TITLE}</title>`);
    // The address-bar guard (frontend/src/lib/personal-query-guard.ts) is inline, so that it runs first.
    const scriptSrc = cspSources(response.headers()['content-security-policy'], 'script-src') ?? [];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !/\bsrc="/.test(attributes));
    expect(inline).toHaveLength(1);
    for (const [, , body] of inline) expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    expect(html).not.toMatch(/js\.stripe\.com|canvas-confetti/);
  });

  for (const width of [390, 1440]) {
    test(`reads well at ${width} px (full-page screenshot)`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: width < 800 ? 844 : 900 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await openLanding(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
      mkdirSync(screenshotsDir, { recursive: true });
      const path = resolve(screenshotsDir, `landing-${width}.png`);
      await page.screenshot({ path, fullPage: true });
      await testInfo.attach(`landing-${width}`, { path, contentType: 'image/png' });
    });
  }
});

test.describe('landing page testimonials (seeded in the database)', () => {
  test.describe.configure({ mode: 'serial' });
  let previouslyFeatured: string[] = [];
  let seeded: string[] = [];

  test.beforeAll(async () => {
    previouslyFeatured = await unfeatureAllTestimonials();
  });

  test.afterAll(async () => {
    await deleteTestimonials(seeded);
    await featureTestimonials(previouslyFeatured);
  });

  test('the section is hidden when no testimonial is featured', async ({ page }) => {
    const featured = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/testimonials/featured');
    await openLanding(page);
    const response = await featured;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual([]);
    await expect(page.getByTestId('section-testimonials')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Real Transformations, Real People' })).toHaveCount(0);
  });

  test('featured testimonials show stars, content, name and title, as text and with safe links only', async ({ page }) => {
    seeded = await insertTestimonials([
      {
        name: 'Maya Thompson',
        title: 'Small business owner',
        content: 'Within three months my revenue doubled. <b>Not bold</b>',
        videoUrl: 'https://videos.example.com/maya',
        imageUrl: 'https://images.example.com/maya.jpg',
        rating: 5,
        displayOrder: 1,
      },
      { name: 'Daniel Okafor', title: 'Father of two', content: 'My marriage is stronger than ever.', rating: 4, displayOrder: 2 },
      { name: 'Unsafe Link', title: 'Tester', content: 'Has a script URL.', videoUrl: 'javascript:alert(1)', rating: 3, displayOrder: 3 },
      { name: 'Not Featured', title: 'Hidden', content: 'Must not appear.', featured: false },
    ]);
    await page.route(/images\.example\.com/, (route) => route.abort());
    await openLanding(page);

    const section = page.getByTestId('section-testimonials');
    await expect(section.getByRole('heading', { level: 2, name: 'Real Transformations, Real People' })).toBeVisible();
    const cards = section.getByTestId('testimonial');
    await expect(cards).toHaveCount(3);
    await expect(section).not.toContainText('Not Featured');
    await expect(section).toContainText('Join 12,847+ members');

    const maya = cards.filter({ hasText: 'Maya Thompson' });
    await expect(maya).toContainText('Small business owner');
    await expect(maya).toContainText('<b>Not bold</b>');
    await expect(maya.locator('b')).toHaveCount(0);
    await expect(maya.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(maya.getByTestId('star')).toHaveCount(5);
    const video = maya.getByRole('link', { name: /Watch Maya Thompson's story/ });
    await expect(video).toHaveAttribute('href', 'https://videos.example.com/maya');
    await expect(video).toHaveAttribute('target', '_blank');
    await expect(video.locator('img')).toHaveAttribute('src', 'https://images.example.com/maya.jpg');

    const daniel = cards.filter({ hasText: 'Daniel Okafor' });
    await expect(daniel).toContainText('Father of two');
    await expect(daniel.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
    await expect(daniel.getByTestId('star')).toHaveCount(4);
    await expect(daniel.getByRole('link')).toHaveCount(0);

    const unsafe = cards.filter({ hasText: 'Unsafe Link' });
    await expect(unsafe.getByRole('link')).toHaveCount(0);
    await expect(section.locator('a[href^="javascript:"]')).toHaveCount(0);
  });
});
