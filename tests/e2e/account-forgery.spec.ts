import { expect, test } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';

/**
 * Login CSRF: a page on another site (127.0.0.2 is another site than 127.0.0.1 to the browser)
 * posts a form with the attacker's own valid sign-in token to /api/account/session. Were it
 * processed, the visitor would be signed in as the attacker and could put their card on the
 * attacker's subscription. The visitor must stay signed out, and the token stays unused.
 */

/** A live sign-in token of the attacker's address, stored as the API stores one (its SHA-256). */
async function attackerToken(): Promise<{ token: string; tokenHash: string }> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  await withDb((db) =>
    db.query(`INSERT INTO account_link_tokens (token_hash, email_normalized, expires_at) VALUES ($1, $2, now() + interval '30 minutes')`, [
      tokenHash,
      uniqueEmail('attacker'),
    ]),
  );
  return { token, tokenHash };
}

/** The attacker's page: a form that submits itself, form-encoded, to the funnel's sign-in. */
async function serveAttackerPage(action: string, token: string): Promise<Server> {
  const html = `<!doctype html><html><body>
<form method="post" enctype="application/x-www-form-urlencoded" action="${action}">
<input type="hidden" name="token" value="${token}">
</form>
<script>document.forms[0].submit()</script>
</body></html>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return server;
}

test('a form posted from another site cannot sign the visitor in', async ({ page, baseURL }) => {
  const site = new URL(String(baseURL));
  expect(site.hostname, 'the attacker must be another site').not.toBe('127.0.0.2');
  const { token, tokenHash } = await attackerToken();
  const attacker = await serveAttackerPage(new URL('/api/account/session', site).toString(), token);
  try {
    const { port } = attacker.address() as AddressInfo;
    const answered = page.waitForResponse((res) => res.url() === new URL('/api/account/session', site).toString());
    await page.goto(`http://127.0.0.2:${port}/`);
    const answer = await answered;
    expect(answer.status()).toBe(403);
    expect(answer.request().headers()['content-type']).toContain('application/x-www-form-urlencoded');

    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).not.toContain('account_session');
    expect((await page.request.get(new URL('/api/account', site).toString())).status()).toBe(401);
    await page.goto(new URL('/account', site).toString());
    await expect(page.getByRole('button', { name: 'Send me a sign-in link' })).toBeVisible();
    const { rows } = await withDb((db) => db.query(`SELECT used_at FROM account_link_tokens WHERE token_hash = $1`, [tokenHash]));
    expect(rows).toEqual([{ used_at: null }]);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
});
