/**
 * What every page says while payments are not live (the sandbox, or Stripe test keys), so nobody
 * takes a test deployment for the shop: a small ribbon in the bottom-left corner. It is fixed, so
 * it shifts nothing (CLS 0); it lets taps through (pointer-events: none) and is small enough to
 * leave a 390 px phone's buttons visible; it is a landmark of its own (axe's 'region' rule), dark on
 * amber (12:1). It goes right after <body>, outside the React root: hydration never sees it.
 */
export const TEST_MODE_RIBBON =
  '<aside aria-label="Test mode" style="position:fixed;left:0;bottom:0;z-index:30;margin:0;padding:2px 8px;' +
  'border-top-right-radius:6px;background:#fcd34d;color:#1c1917;font:600 12px/1.4 system-ui,sans-serif;' +
  'pointer-events:none">Test mode: no real charges</aside>';

const BODY_OPEN = /<body\b[^>]*>/i;

/** The document with the ribbon right after its opening <body> tag (unchanged if it has none). */
export function withTestModeRibbon(html: string): string {
  // A function replacement: the ribbon is text, never a replacement pattern.
  return html.replace(BODY_OPEN, (body) => `${body}${TEST_MODE_RIBBON}`);
}
