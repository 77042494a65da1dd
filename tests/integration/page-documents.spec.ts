import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Stack, startStack } from './support/stack';

/** A Content-Security-Policy header as directive → sources. */
function directives(header: string | undefined): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) parsed.set(name, sources);
  }
  return parsed;
}

/**
 * Which document each page path gets, and under which policy: the admin area its own document
 * (admin.html) with scripts of this origin only; the funnel's pages the SPA with the site's policy,
 * which allows the build's one inline script (the address-bar guard) by its hash and no other.
 * A stand-in build, so the server's choices are checked apart from the real build's contents.
 */
describe('page documents and their Content-Security-Policy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-documents-'));
  const guard = 'history.replaceState(null,"","/checkout");';
  let stack: Stack;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), `<!doctype html><head><script>${guard}</script></head><body>landing document</body>`);
    writeFileSync(join(dir, 'spa.html'), `<!doctype html><head><script>${guard}</script></head><body>funnel document</body>`);
    writeFileSync(join(dir, 'admin.html'), '<!doctype html><head></head><body>admin document</body>');
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'pages', 'upsell.html'), `<!doctype html><head><script>${guard}</script></head><body>upsell document</body>`);
    stack = await startStack({ STATIC_DIR: dir }, { worker: false });
    api = request(stack.url);
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['/admin', 200],
    ['/admin/login', 200],
    ['/admin/testimonials', 200],
    ['/Admin/Testimonials/', 200],
    ['/admin/no-such-screen', 404],
  ])('%s gets the admin document, whose scripts may come from this origin only', async (path, status) => {
    const res = await api.get(path).set('accept', 'text/html').expect(status);
    expect(res.text).toContain('admin document');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    // No other host anywhere in the policy, and nothing inline but styles (the toast components').
    for (const [name, sources] of csp) {
      expect(sources.filter((source) => /^https?:|^\*|sha256-|unsafe-eval/.test(source))).toEqual([]);
      if (name !== 'style-src') expect(sources).not.toContain("'unsafe-inline'");
    }
  });

  it('every answer under /admin carries the admin policy: the queue dashboard, and errors too', async () => {
    for (const [path, status] of [
      ['/admin/queues', 302],
      ['/admin/queues/api/queues', 401],
    ] as const) {
      const res = await api
        .get(path)
        .set('accept', path.includes('/api/') ? 'application/json' : 'text/html')
        .expect(status);
      expect(directives(res.headers['content-security-policy']).get('script-src')).toEqual(["'self'"]);
    }
  });

  it.each(['/checkout', '/success', '/no-such-page'])(
    '%s gets the funnel document with the site policy and the guard allowed by its hash',
    async (path) => {
      const res = await api.get(`${path}?plan=standard`).set('accept', 'text/html');
      expect(res.text).toContain('funnel document');
      const scriptSrc = directives(res.headers['content-security-policy']).get('script-src');
      expect(scriptSrc).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']));
      expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(guard).digest('base64')}'`);
      expect(scriptSrc).not.toContain("'unsafe-inline'");
    },
  );

  it.each(['/upsell', '/UPSELL/'])('%s, prerendered by the build, gets its own document under the site policy', async (path) => {
    const res = await api.get(`${path}?email=a%40example.com`).set('accept', 'text/html').expect(200);
    expect(res.text).toContain('upsell document');
    expect(res.headers['cache-control']).toBe('no-cache');
    const scriptSrc = directives(res.headers['content-security-policy']).get('script-src');
    expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(guard).digest('base64')}'`);
  });

  it('the landing page and the API keep the site policy', async () => {
    const landing = await api.get('/').expect(200);
    expect(landing.text).toContain('landing document');
    expect(directives(landing.headers['content-security-policy']).get('script-src')).toContain('https://js.stripe.com');
    const health = await api.get('/api/health/live').expect(200);
    expect(directives(health.headers['content-security-policy']).get('script-src')).toContain('https://js.stripe.com');
  });
});
