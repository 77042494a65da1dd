const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const page = (brandName: string, title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(brandName)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font:inherit;padding:.6rem 1rem;margin-top:.5rem;border-radius:6px;border:1px solid #0b0b0f;background:#0b0b0f;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #0a58ca;outline-offset:2px}
</style>
</head>
<body>
<main>
<p>${escapeHtml(brandName)}</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;

/**
 * The unsubscribe link's page: plain HTML (no script, so the strict CSP holds) whose button
 * POSTs the RFC 8058 one-click body. Opening the link changes nothing, since mail scanners follow
 * links; only the POST unsubscribes.
 */
export function confirmUnsubscribePage(brandName: string, token: string): string {
  const action = `/api/unsubscribe?token=${encodeURIComponent(token)}`;
  return page(
    brandName,
    'Unsubscribe from reminders?',
    `<p>You will get no more reminders or other marketing e-mail from us. Receipts and e-mails about your account still come.</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function unsubscribedPage(brandName: string): string {
  return page(
    brandName,
    'You are unsubscribed',
    `<p>You will get no more marketing e-mail from us. Receipts and e-mails about your account still come.</p>`,
  );
}
