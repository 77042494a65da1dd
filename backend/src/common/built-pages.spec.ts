import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_PAGES_FILE } from '@contracts/route-table';
import { BuiltPages } from './built-pages';

describe('BuiltPages', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clear-built-pages-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('knows the pages the build lists, in any case and with a trailing slash, and no other', () => {
    writeFileSync(join(dir, 'index.html'), 'landing');
    writeFileSync(join(dir, BUILT_PAGES_FILE), JSON.stringify(['/', '/welcome']));
    const pages = BuiltPages.read(dir);
    expect(['/', '/welcome', '/Welcome/', '/WELCOME'].map((path) => pages.has(path))).toEqual([true, true, true, true]);
    expect(['/checkout', '/welcome/more', '/admin'].map((path) => pages.has(path))).toEqual([false, false, false]);
  });

  it('knows no page without a build (the API alone)', () => {
    expect(BuiltPages.read(join(dir, 'missing')).has('/')).toBe(false);
  });

  it('refuses a build that does not list its pages, or lists them wrongly, rather than answer every page 404', () => {
    writeFileSync(join(dir, 'index.html'), 'landing');
    expect(() => BuiltPages.read(dir)).toThrow(`has no ${BUILT_PAGES_FILE}: rebuild it with "npm run build:web"`);
    writeFileSync(join(dir, BUILT_PAGES_FILE), JSON.stringify({ '/': 'index.html' }));
    expect(() => BuiltPages.read(dir)).toThrow('must be a JSON array of page paths');
  });
});
