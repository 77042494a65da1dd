import { expect, test } from '@playwright/test';
import { pageCopy } from './support/seller-site';

/**
 * Every page a buyer sees paints from the server's HTML: the build prerenders each page's markup
 * (or, for /checkout, the frame of its screen; for /success, its loading view) into its own document, which the
 * server picks by route. What these pages must show before any script runs, in the spec's words.
 */
const { pages } = pageCopy('pages');
const upsell = pageCopy('upsell');
const PAGES = [
  { path: '/invitation', title: pages.invitation.title, headline: 'Your Invitation Awaits.' },
  // The access rules run before the content shows: the HTML holds the check's state, never the invitee content.
  {
    path: '/blackcard',
    title: pages.blackcard.title,
    headline: 'Verifying access...',
    absent: "YOU'VE BEEN INVITED TO THE 11 MILLION",
  },
  {
    path: '/upsell',
    title: pages.upsell.title,
    headline: upsell.headline,
    also: ['The 30-Day Experience', upsell.startingFrom],
  },
  {
    path: '/blackcard-upsell',
    title: pages.blackcardUpsell.title,
    headline: 'Level Two: The Ascension Experience',
    also: ["You've completed Level 1 – The Gateway"],
  },
  {
    path: '/account',
    title: pages.account.title,
    headline: 'Your Account',
    also: ['Your memberships and payments in one place.', 'Loading your account…'],
  },
  {
    path: '/checkout',
    title: pages.checkout.title,
    headline: 'Complete Your Order',
    also: ['Payment Details', 'Order Summary', 'Initializing secure payment...'],
  },
  {
    path: '/success',
    title: pages.success.title,
    headline: 'Verifying Payment...',
    also: ['Please wait while we confirm your purchase.'],
  },
];

/** The document's text as a reader sees it: tags out, the entities React writes decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#x27;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

test.describe('prerendered pages', () => {
  for (const { path, title, headline, also = [], absent } of PAGES) {
    test(`${path}: the document the server sends already holds its title and headline`, async ({ request }) => {
      const response = await request.get(path, { headers: { accept: 'text/html' } });
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${title}</title>`);
      const h1 = html.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/)?.[1] ?? '';
      expect(visibleText(h1)).toBe(headline);
      for (const text of also) expect(visibleText(html)).toContain(text);
      if (absent) expect(visibleText(html)).not.toContain(absent);
      // Its CSS comes inline, so nothing blocks the first paint; Stripe.js never loads from the HTML.
      expect(html).not.toMatch(/<link rel="stylesheet"/);
      expect(html).not.toMatch(/js\.stripe\.com/);
    });
  }

  test('with JavaScript disabled, each page still shows its headline and title', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      for (const { path, title, headline, absent } of PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(headline);
        await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
        await expect(page, path).toHaveTitle(title);
        if (absent) await expect(page.getByText(absent), path).toHaveCount(0);
      }
    } finally {
      await context.close();
    }
  });
});
