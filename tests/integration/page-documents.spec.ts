import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import request from 'supertest';
import { BUILT_PAGES_FILE } from '@contracts/route-table';
import { FakeStripeServer } from '../fakes/stripe-server';
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

const RIBBON = '<aside aria-label="Test mode"';
/** The analytics and affiliate vendors' hosts, each allowed only while its id is set. */
const VENDOR_HOST = /google|doubleclick|facebook|firstpromoter/;

/** The settings a page carries (@contracts/site-settings), or undefined without the element. */
function settingsIn(html: string): unknown {
  const json = /<script type="application\/json" id="site-settings">([^<]*)<\/script><\/head>/.exec(html)?.[1];
  return json === undefined ? undefined : JSON.parse(json);
}

/**
 * A stand-in build: its documents, the landing page's pre-compressed variant and the list of its
 * pages, as the web build writes them. `/welcome` is a page the app's code never names.
 */
function writeBuild(dir: string, guard: string): void {
  const landing = `<!doctype html><head><script>${guard}</script></head><body class="site">landing document</body>`;
  writeFileSync(join(dir, 'index.html'), landing);
  writeFileSync(join(dir, 'index.html.br'), brotliCompressSync(landing));
  writeFileSync(join(dir, 'spa.html'), `<!doctype html><head><script>${guard}</script></head><body>funnel document</body>`);
  writeFileSync(join(dir, 'admin.html'), '<!doctype html><head></head><body>admin document</body>');
  mkdirSync(join(dir, 'pages'));
  writeFileSync(join(dir, 'pages', 'upsell.html'), `<!doctype html><head><script>${guard}</script></head><body>upsell document</body>`);
  writeFileSync(join(dir, 'pages', 'welcome.html'), `<!doctype html><head><script>${guard}</script></head><body>welcome document</body>`);
  writeFileSync(join(dir, BUILT_PAGES_FILE), JSON.stringify(['/', '/checkout', '/success', '/upsell', '/welcome']));
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
    writeBuild(dir, guard);
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

  it('answers the pages its build lists: a page the code never names is served, one the build left out is not', async () => {
    const welcome = await api.get('/Welcome/').set('accept', 'text/html').expect(200);
    expect(welcome.text).toContain('welcome document');
    const unbuilt = await api.get('/account').set('accept', 'text/html').expect(404);
    expect(unbuilt.text).toContain('funnel document');
    const view = (path: string) => api.post('/api/beacon').send({ type: 'page_view', visitorId: 'visitor-welcome-0001', path });
    await view('/welcome').expect(204);
    await view('/account').expect(400);
  });

  it('with no analytics or affiliate id set: no settings in any page, and no vendor host in the policy', async () => {
    for (const path of ['/', '/checkout', '/upsell']) {
      const res = await api.get(path).set('accept', 'text/html').expect(200);
      expect(res.text).not.toContain('id="site-settings"');
      const csp = directives(res.headers['content-security-policy']);
      expect([...(csp.get('script-src') ?? []), ...(csp.get('connect-src') ?? [])].filter((source) => VENDOR_HOST.test(source))).toEqual(
        [],
      );
    }
  });

  it('the landing page and the API keep the site policy', async () => {
    const landing = await api.get('/').expect(200);
    expect(landing.text).toContain('landing document');
    expect(directives(landing.headers['content-security-policy']).get('script-src')).toContain('https://js.stripe.com');
    const health = await api.get('/api/health/live').expect(200);
    expect(directives(health.headers['content-security-policy']).get('script-src')).toContain('https://js.stripe.com');
  });

  it.each(['/', '/checkout', '/no-such-page', '/upsell', '/admin', '/index.html', '/pages/upsell.html'])(
    'the sandbox moves no real money: %s carries the test-mode ribbon right after <body>, never the built file without it',
    async (path) => {
      const res = await api.get(path).set('accept', 'text/html').set('accept-encoding', 'gzip, br');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.text).toMatch(new RegExp(`<body[^>]*>${RIBBON}[^<]*>Test mode: no real charges</aside>`));
      expect(res.text.match(/Test mode: no real charges/g)).toHaveLength(1);
    },
  );

  it.each([
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['identity', undefined],
  ])('with Accept-Encoding %p the ribboned landing page goes out as %p', async (accepted, encoding) => {
    const res = await api.get('/').set('accept-encoding', accepted).expect(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.text).toContain('Test mode: no real charges</aside>landing document');
  });
});

describe('a live deployment (a Stripe live key)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-documents-live-'));
  const stripe = new FakeStripeServer();
  let stack: Stack;

  beforeAll(async () => {
    writeBuild(dir, 'history.replaceState(null,"","/");');
    await stripe.start();
    stack = await startStack(
      {
        STATIC_DIR: dir,
        STRIPE_SECRET_KEY: 'sk_live_fakekey',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_fakekey',
        STRIPE_WEBHOOK_SECRET: 'whsec_livedocumentssecret000000000',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
      { worker: false },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await stripe.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/checkout', '/upsell', '/admin'])('%s is the built document, without the ribbon', async (path) => {
    const res = await request(stack.url).get(path).set('accept', 'text/html').expect(200);
    expect(res.text).toContain('document</body>');
    expect(res.text).not.toContain('Test mode');
  });

  it("the landing page is its built file's pre-compressed variant, as built", async () => {
    const res = await request(stack.url).get('/').set('accept-encoding', 'br').expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.text).toBe(
      '<!doctype html><head><script>history.replaceState(null,"","/");</script></head><body class="site">landing document</body>',
    );
  });
});

/**
 * One build, the site's ids and links given to the server at start: the pages carry them (the
 * browser's analytics, affiliate script and members-area links read them there) and the policy
 * allows exactly the vendors whose ids are set.
 */
describe("a site's run-time settings", () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-documents-settings-'));
  const all = {
    GA4_MEASUREMENT_ID: 'G-SITE123',
    META_PIXEL_ID: '998877665544',
    FIRSTPROMOTER_ID: 'fpsite42',
    PROGRAM_APP_URL: 'https://members.site.example',
    MEMBERS_REGISTER_URL: 'https://members.site.example/join',
    APP_DOWNLOAD_URL: 'https://get.site.example/app',
  };
  let stack: Stack;

  beforeAll(async () => {
    writeBuild(dir, 'history.replaceState(null,"","/");');
    stack = await startStack({ STATIC_DIR: dir, ...all }, { worker: false });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
    // startStack leaves its environment in process.env: the next stack of this file sets its own.
    for (const name of Object.keys(all)) delete process.env[name];
  });

  it.each(['/', '/checkout', '/upsell', '/no-such-page', '/index.html'])('%s carries every setting in its head', async (path) => {
    const res = await request(stack.url).get(path).set('accept', 'text/html').set('accept-encoding', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(settingsIn(res.text)).toEqual({
      ga4Id: all.GA4_MEASUREMENT_ID,
      metaPixelId: all.META_PIXEL_ID,
      firstPromoterId: all.FIRSTPROMOTER_ID,
      programAppUrl: all.PROGRAM_APP_URL,
      membersRegisterUrl: all.MEMBERS_REGISTER_URL,
      appDownloadUrl: all.APP_DOWNLOAD_URL,
    });
    expect(res.text.match(/id="site-settings"/g)).toHaveLength(1);
  });

  it('the admin document carries none: the admin pages load no third party', async () => {
    const res = await request(stack.url).get('/admin').set('accept', 'text/html').expect(200);
    expect(res.text).toContain('admin document');
    expect(res.text).not.toContain('site-settings');
  });

  it("the policy allows GA4's, the Meta pixel's and FirstPromoter's hosts, and still the build's one inline script by hash only", async () => {
    const csp = directives((await request(stack.url).get('/').expect(200)).headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(
      expect.arrayContaining(['https://www.googletagmanager.com', 'https://connect.facebook.net', 'https://cdn.firstpromoter.com']),
    );
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining(['https://*.google-analytics.com', 'https://www.facebook.com', 'https://t.firstpromoter.com']),
    );
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('script-src')?.filter((source) => source.startsWith("'sha256-"))).toHaveLength(1);
  });
});

describe('a live site with only a GA4 id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clear-documents-ga4-'));
  const stripe = new FakeStripeServer();
  let stack: Stack;

  beforeAll(async () => {
    writeBuild(dir, 'history.replaceState(null,"","/");');
    await stripe.start();
    stack = await startStack(
      {
        STATIC_DIR: dir,
        GA4_MEASUREMENT_ID: 'G-LIVEONLY',
        STRIPE_SECRET_KEY: 'sk_live_fakekey',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_fakekey',
        STRIPE_WEBHOOK_SECRET: 'whsec_livedocumentssecret000000000',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
      { worker: false },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await stripe.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every public page carries the id (no ribbon, the built .br never sent), the admin document stays as built', async () => {
    for (const path of ['/', '/upsell', '/checkout']) {
      const res = await request(stack.url).get(path).set('accept', 'text/html').set('accept-encoding', 'br').expect(200);
      expect(settingsIn(res.text)).toEqual({ ga4Id: 'G-LIVEONLY' });
      expect(res.text).not.toContain('Test mode');
    }
    const adminPage = await request(stack.url).get('/admin').set('accept', 'text/html').expect(200);
    expect(adminPage.text).toBe('<!doctype html><head></head><body>admin document</body>');
  });

  it("the policy allows Google's hosts and no other vendor's", async () => {
    const csp = directives((await request(stack.url).get('/').expect(200)).headers['content-security-policy']);
    const vendors = [...(csp.get('script-src') ?? []), ...(csp.get('connect-src') ?? [])].filter((source) => VENDOR_HOST.test(source));
    expect(vendors).toEqual([
      'https://www.googletagmanager.com',
      'https://www.google-analytics.com',
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://stats.g.doubleclick.net',
      'https://www.google.com',
    ]);
  });
});
