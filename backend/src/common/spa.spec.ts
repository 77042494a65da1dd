import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_PAGES_FILE } from '@contracts/route-table';
import { BuiltPages } from './built-pages';
import { inlineScriptHashes, pageDocuments } from './spa';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('inlineScriptHashes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clear-spa-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes the inline scripts of the public pages, exactly as written, once each', () => {
    const guard = '(function(){history.replaceState(null,"","/checkout")})();';
    writeFileSync(
      join(dir, 'index.html'),
      `<head><script>${guard}</script><script type="module" crossorigin src="/assets/landing.js"></script></head>`,
    );
    writeFileSync(join(dir, 'spa.html'), `<head>\n<script>${guard}</script>\n<script>\n  window.x = 1;\n</script></head>`);
    writeFileSync(join(dir, 'admin.html'), '<head><script>window.admin = 1;</script></head>');
    expect(inlineScriptHashes(dir).sort()).toEqual([sha256(guard), sha256('\n  window.x = 1;\n')].sort());
  });

  it('leaves out data blocks, which never run (the granted /blackcard carries its invitee in one)', () => {
    mkdirSync(join(dir, 'pages'));
    writeFileSync(
      join(dir, 'pages', 'blackcard-granted.html'),
      '<head><script>window.guard = 1;</script></head><div id="root"><script type="application/json" id="blackcard-grant">__BLACKCARD_GRANT__</script></div>',
    );
    expect(inlineScriptHashes(dir)).toEqual([sha256('window.guard = 1;')]);
  });

  it("hashes the prerendered pages' inline scripts too", () => {
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'pages', 'upsell.html'), '<head><script>window.upsell = 1;</script></head>');
    expect(inlineScriptHashes(dir)).toEqual([sha256('window.upsell = 1;')]);
  });

  it('is empty without a build', () => {
    expect(inlineScriptHashes(join(dir, 'missing'))).toEqual([]);
  });
});

describe('pageDocuments', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clear-spa-'));
    for (const file of ['index.html', 'spa.html', 'admin.html']) writeFileSync(join(dir, file), file);
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'pages', 'upsell.html'), 'upsell');
    writeFileSync(join(dir, 'pages', 'checkout.html'), 'checkout');
    writeFileSync(join(dir, 'pages', 'blackcard-granted.html'), 'granted');
    writeFileSync(join(dir, BUILT_PAGES_FILE), JSON.stringify(['/', '/upsell', '/checkout', '/success', '/blackcard']));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a prerendered page its own document, in any case and with a trailing slash', () => {
    const documentFor = pageDocuments(dir, 'spa.html', BuiltPages.read(dir));
    expect(['/upsell', '/UPSELL', '/upsell/'].map(documentFor)).toEqual(['pages/upsell.html', 'pages/upsell.html', 'pages/upsell.html']);
    expect(documentFor('/checkout')).toBe('pages/checkout.html');
  });

  it('gives the shell to pages the build did not prerender and to unknown paths, the admin document under /admin', () => {
    const documentFor = pageDocuments(dir, 'spa.html', BuiltPages.read(dir));
    expect(documentFor('/success')).toBe('spa.html');
    expect(documentFor('/no-such-page')).toBe('spa.html');
    expect(documentFor('/pages/upsell')).toBe('spa.html');
    expect(documentFor('/admin/testimonials')).toBe('admin.html');
    expect(documentFor('/')).toBe('index.html');
  });

  it('gives the shell to a document of the build that is no page of its list (the granted /blackcard)', () => {
    const documentFor = pageDocuments(dir, 'spa.html', BuiltPages.read(dir));
    expect(documentFor('/blackcard-granted')).toBe('spa.html');
  });
});
