import { expect, type Page, type Request } from '@playwright/test';

/** The query string of the page's current URL, exactly as it stands (parameter order included). */
export function currentPathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Opens /invitation once its form has hydrated: the HTML's submit button is disabled until then. */
export async function openInvitation(page: Page, query = ''): Promise<void> {
  await page.goto(`/invitation${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Invitation Awaits.' })).toBeVisible();
  await expect(page.getByTestId('invitation-submit')).toBeEnabled();
}

/**
 * The overlay plays once, on the first scroll past 50 px, and covers the page for 3 s. Reaching
 * the form's lower fields scrolls, so a click could land on the overlay instead of the button:
 * let it play out first, as a visitor's first scroll would, then go back to the top.
 */
async function playOverlayOut(page: Page): Promise<void> {
  const overlay = page.getByTestId('invitation-overlay');
  await page.evaluate(() => window.scrollTo(0, 120));
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveCount(0, { timeout: 5000 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

export async function fillInvitation(
  page: Page,
  values: { name: string; email: string; phone?: string; invitedBy?: string },
): Promise<void> {
  await playOverlayOut(page);
  await page.getByLabel('Full Name').fill(values.name);
  await page.getByLabel('Email Address').fill(values.email);
  if (values.phone !== undefined) await page.getByLabel('Phone Number (optional)').fill(values.phone);
  if (values.invitedBy !== undefined) await page.getByLabel('Invited By (optional)').fill(values.invitedBy);
}

/** Answers POST /api/invitation-gate as the contract says, recording each body sent. A stub of our API: `screen:` tests only (../README.md). */
export async function answerInvitationGate(page: Page, status: number, body: unknown, bodies: unknown[] = []): Promise<unknown[]> {
  await page.route('**/api/invitation-gate', async (route) => {
    bodies.push(route.request().postDataJSON());
    await route.fulfill({ status, contentType: 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body) });
  });
  return bodies;
}

/**
 * Answers GET /api/validate-token/{token} with the invitee, after an optional delay (to see the spinner).
 * A stub of our API: `screen:` tests only (../README.md).
 */
export async function answerTokenValidation(page: Page, invitee: { email: string; name: string } | null, delayMs = 0): Promise<string[]> {
  const tokens: string[] = [];
  await page.route('**/api/validate-token/*', async (route) => {
    tokens.push(decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? ''));
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (invitee) await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(invitee) });
    else
      await route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Invalid' }),
      });
  });
  return tokens;
}

/** Puts an invitee session into session storage before any page script runs. */
export async function seedInviteeSession(
  page: Page,
  values: Partial<Record<'blackcard_token' | 'blackcard_email' | 'blackcard_name', string>>,
): Promise<void> {
  await page.addInitScript((entries) => {
    for (const [key, value] of Object.entries(entries)) window.sessionStorage.setItem(key, value);
  }, values);
}

export function inviteeSession(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(() => ({
    token: sessionStorage.getItem('blackcard_token'),
    email: sessionStorage.getItem('blackcard_email'),
    name: sessionStorage.getItem('blackcard_name'),
  }));
}

export function isGateRequest(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === '/api/invitation-gate';
}
