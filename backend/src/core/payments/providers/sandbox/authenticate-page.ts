const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The sandbox's stand-in for the bank's 3-D Secure page: plain HTML (no script, so the strict CSP
 * holds), clearly marked as test mode, with one form per outcome.
 */
export function authenticatePage(clientSecret: string, returnUrl: string, kind: 'payment_intent' | 'setup_intent'): string {
  const hidden =
    `<input type="hidden" name="client_secret" value="${escapeHtml(clientSecret)}">` +
    `<input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}">`;
  const what = kind === 'payment_intent' ? 'this payment' : 'saving this card';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Test mode: authenticate ${what}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.badge{display:inline-block;background:#fff3cd;color:#664d03;border:1px solid #ffda6a;border-radius:4px;padding:.2rem .5rem;font-weight:600}
form{display:inline}
button{font:inherit;padding:.6rem 1rem;margin:.5rem .5rem 0 0;border-radius:6px;border:1px solid #555;cursor:pointer}
button:focus-visible{outline:3px solid #0a58ca;outline-offset:2px}
.complete{background:#146c43;color:#fff;border-color:#146c43}
</style>
</head>
<body>
<main>
<p class="badge">Test mode</p>
<h1>Authenticate ${what}</h1>
<p>This card requires authentication. In test mode no bank is contacted: choose the outcome.</p>
<form method="post" action="/api/sandbox/authenticate">${hidden}<input type="hidden" name="outcome" value="complete"><button type="submit" class="complete">Complete authentication</button></form>
<form method="post" action="/api/sandbox/authenticate">${hidden}<input type="hidden" name="outcome" value="fail"><button type="submit">Fail authentication</button></form>
</main>
</body>
</html>`;
}
