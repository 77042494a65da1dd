import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inlineScriptHashes } from './spa';

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

  it('is empty without a build', () => {
    expect(inlineScriptHashes(join(dir, 'missing'))).toEqual([]);
  });
});
