import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * What every page says while payments are not live (the sandbox, or Stripe test keys), so nobody
 * takes a test deployment for the shop: a small ribbon in the bottom-left corner. It is fixed, so
 * it shifts nothing (CLS 0); it lets taps through (pointer-events: none) and is small enough to
 * leave a 390 px phone's buttons visible; it is a landmark of its own (axe's 'region' rule), dark on
 * amber (12:1). It goes right after <body>, outside the React root: hydration never sees it. Its
 * height is set (one 1.4em line, never wrapped): the browser may paint the document between the
 * aside's tag and its text, and a box that then grew upwards from the bottom edge was a layout shift.
 */
export const TEST_MODE_RIBBON =
  '<aside aria-label="Test mode" style="position:fixed;left:0;bottom:0;z-index:30;margin:0;padding:2px 8px;' +
  'border-top-right-radius:6px;background:#fcd34d;color:#1c1917;font:600 12px/1.4 system-ui,sans-serif;' +
  'height:1.4em;white-space:nowrap;pointer-events:none">Test mode: no real charges</aside>';

const BODY_OPEN = /<body\b[^>]*>/i;

/** The document with the ribbon right after its opening <body> tag (unchanged if it has none). */
export function withTestModeRibbon(html: string): string {
  // A function replacement: the ribbon is text, never a replacement pattern.
  return html.replace(BODY_OPEN, (body) => `${body}${TEST_MODE_RIBBON}`);
}

export type DocumentEncoding = 'br' | 'gzip';

/** A document as it is and in each encoding it is sent in. */
export type CompressedDocument = Record<DocumentEncoding | 'identity', Buffer>;

/**
 * A document compressed once, at the web build's maximum levels (frontend/vite/precompress.ts):
 * every answer then costs what the build's own .br/.gz do, in bytes and in CPU.
 */
export function compressedDocument(html: string): CompressedDocument {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** The encoding an Accept-Encoding header takes, brotli first (a q of 0 refuses one); null: none. */
export function acceptedEncoding(header: string | undefined): DocumentEncoding | null {
  const quality = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (name) quality.set(name, q ? Number(q.slice(2)) : 1);
  }
  const takes = (name: DocumentEncoding) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}
