import { expect, type Locator, type Page, type Request } from '@playwright/test';

/** Stripe's test cards, which the sandbox honours with Stripe's outcomes. */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  authentication: '4000 0025 0000 3155',
  /** Asks for authentication on every payment, a subscription's first one included. */
  authenticationEveryPayment: '4000 0027 6000 3184',
} as const;

export function checkoutUrl(params: Record<string, string>): string {
  return `/checkout?${new URLSearchParams(params).toString()}`;
}

/**
 * The hand-off parameters /checkout and /success take out of the address bar on arrival
 * (frontend/src/lib/personal-query-guard.ts): the spec's links carry them, the address never shows them.
 */
export const PERSONAL_PARAMS = ['email', 'name', 'token'] as const;

/** What the address bar shows for a link to /checkout or /success: the link's own path and query, without e-mail, name and token. */
function addressBarFor(href: string): string {
  const url = new URL(href, 'http://x');
  for (const name of PERSONAL_PARAMS) url.searchParams.delete(name);
  return `${url.pathname}${url.search}`;
}

/** Clicks a link to /checkout or /success and waits for its page; returns the link's href, the hand-off as the spec writes it. */
export async function followHandOffLink(page: Page, link: Locator): Promise<string> {
  const href = await link.getAttribute('href');
  if (!href) throw new Error('The link has no href');
  await link.click();
  await page.waitForURL((url) => `${url.pathname}${url.search}` === addressBarFor(href));
  return href;
}

/**
 * The hand-off the current /checkout or /success page holds, as the link or redirect wrote it: the
 * address's parameters plus those the page keeps for this history entry (its history state names
 * them in session storage; both keys are the page's own, personal-query-guard.ts).
 */
export function handOffOf(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const mark = (history.state as { personalQuery?: unknown } | null)?.personalQuery;
    const kept =
      typeof mark === 'string'
        ? (JSON.parse(sessionStorage.getItem('clear.personal-query.v1') ?? '{}') as Record<string, unknown>)[mark]
        : mark;
    return { ...Object.fromEntries(new URLSearchParams(location.search)), ...(kept as Record<string, string> | undefined) };
  });
}

/** Waits for the sandbox's 'Test mode' form and types a card into it. */
export async function fillSandboxCard(page: Page, number: string): Promise<void> {
  const form = page.getByTestId('sandbox-card-form');
  await expect(form).toBeVisible();
  await expect(form).toContainText('Test mode');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('CVC').fill('123');
}

export function payButton(page: Page) {
  return page.getByTestId('pay-button');
}

/** Every request the page makes to a Stripe host; sandbox mode must make none. */
export function recordStripeRequests(page: Page): string[] {
  const hosts: string[] = [];
  page.on('request', (request: Request) => {
    const host = new URL(request.url()).hostname;
    if (/(^|\.)(stripe\.com|stripe\.network)$/.test(host)) hosts.push(request.url());
  });
  return hosts;
}

/**
 * The sandbox's authentication step (card 4000 0025 0000 3155) is the API's page, standing in for
 * the bank's 3-D Secure page: it offers to complete or to fail the authentication, as Stripe's test page does.
 */
export async function answerSandboxAuthentication(page: Page, outcome: 'complete' | 'fail'): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/api/sandbox'));
  const name = outcome === 'complete' ? /complete/i : /fail|cancel/i;
  await page.getByRole('button', { name }).first().click();
}

/** Answers GET /api/payments/config as a Stripe deployment would, without any Stripe keys on the server. A stub of our API: `screen:` tests only (../README.md). */
export async function pretendStripeIsConfigured(page: Page): Promise<void> {
  await page.route('**/api/payments/config', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ provider: 'stripe', publishableKey: 'pk_test_x' }),
    }),
  );
}

/** The sandbox provider with a stubbed intent, for screen checks that do not pay: `screen:` tests only (../README.md). */
export async function stubSandboxCheckout(page: Page): Promise<void> {
  await page.route('**/api/payments/config', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ provider: 'sandbox', publishableKey: null }) }),
  );
  for (const path of ['create-setup-intent', 'create-payment-intent']) {
    await page.route(`**/api/${path}`, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ clientSecret: 'pi_stub_secret_stub' }) }),
    );
  }
}
