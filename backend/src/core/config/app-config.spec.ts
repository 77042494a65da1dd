import { ConfigError, DEV_SANDBOX_WEBHOOK_SECRET, loadConfig, loadProcessConfig } from './app-config';

const valid = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

describe('loadConfig', () => {
  it('applies documented defaults to a minimal environment', () => {
    const config = loadConfig(valid);
    expect(config.PORT).toBe(3000);
    expect(config.BODY_LIMIT_BYTES).toBe(16_384);
    expect(config.AFFILIATE_API_KEY).toBeUndefined();
  });

  it("never prints a secret, nor a connection URL's password, when refusing them", () => {
    const refused = () => loadConfig({ ...valid, DATABASE_URL: 'mysql://app:hunter2@db/x', SANDBOX_WEBHOOK_SECRET: 'whsec_short' });
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(/SANDBOX_WEBHOOK_SECRET \(set, value hidden\)/);
    expect(refused).toThrow(/DATABASE_URL \("mysql:\/\/app:\*\*\*@db\/x"\)/);
    expect(refused).not.toThrow(/hunter2|whsec_short/);
  });

  it('converts numeric variables', () => {
    const config = loadConfig({ ...valid, PORT: '8080', RATE_LIMIT_WRITES: '5' });
    expect(config).toMatchObject({ PORT: 8080, RATE_LIMIT_WRITES: 5 });
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['10.0.0.7', ['10.0.0.7']],
    [' 10.0.0.0/8, 192.168.1.7 ,loopback', ['10.0.0.0/8', '192.168.1.7', 'loopback']],
    ['2001:db8::/32,::1', ['2001:db8::/32', '::1']],
  ])('reads TRUST_PROXY=%p as Fastify trustProxy %p', (value, expected) => {
    expect(loadConfig(value === undefined ? valid : { ...valid, TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    ['yes', /TRUST_PROXY \("yes"\): must be false, true .*a hop count .*CIDRs.*"yes" is not an address or CIDR/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is not an address or CIDR/],
    ['10.0.0.1,,10.0.0.2', /"" is not an address or CIDR/],
    ['proxy.internal', /"proxy.internal" is not an address or CIDR/],
    ['-1', /TRUST_PROXY \("-1"\)/],
  ])('refuses TRUST_PROXY=%p with a message that says what it takes', (value, message) => {
    expect(() => loadConfig({ ...valid, TRUST_PROXY: value })).toThrow(message);
  });

  it('keeps at least one connection of the API pool for routes outside the money path', () => {
    expect(loadConfig({ ...valid, DATABASE_POOL_SIZE: '4', SHED_MONEY_RESERVED_CONNECTIONS: '3' }).SHED_MONEY_RESERVED_CONNECTIONS).toBe(3);
    expect(() => loadConfig({ ...valid, DATABASE_POOL_SIZE: '4', SHED_MONEY_RESERVED_CONNECTIONS: '4' })).toThrow(
      /SHED_MONEY_RESERVED_CONNECTIONS \("4"\): must be less than DATABASE_POOL_SIZE/,
    );
  });

  it("keeps a worker's pool larger than its payment jobs in flight", () => {
    expect(loadConfig(valid).WORKER_DATABASE_POOL_SIZE).toBeGreaterThan(loadConfig(valid).WORKER_CONCURRENCY);
    expect(() => loadConfig({ ...valid, WORKER_CONCURRENCY: '10', WORKER_DATABASE_POOL_SIZE: '10' })).toThrow(
      /WORKER_DATABASE_POOL_SIZE \("10"\): must be more than WORKER_CONCURRENCY/,
    );
  });

  it('refuses the money path before other routes, never after', () => {
    expect(() => loadConfig({ ...valid, SHED_EVENT_LOOP_DELAY_MS: '800', SHED_MONEY_EVENT_LOOP_DELAY_MS: '500' })).toThrow(
      /SHED_MONEY_EVENT_LOOP_DELAY_MS \("500"\): must be at least SHED_EVENT_LOOP_DELAY_MS/,
    );
    expect(
      loadConfig({ ...valid, SHED_EVENT_LOOP_DELAY_MS: '800', SHED_MONEY_EVENT_LOOP_DELAY_MS: '800' }).SHED_MONEY_EVENT_LOOP_DELAY_MS,
    ).toBe(800);
  });

  it('never lets a new checkout join a longer line for the pool than a purchase under way', () => {
    expect(loadConfig(valid).SHED_CHECKOUT_MAX_POOL_WAITING).toBeLessThan(loadConfig(valid).SHED_MAX_POOL_WAITING);
    expect(loadConfig({ ...valid, SHED_MAX_POOL_WAITING: '30', SHED_CHECKOUT_MAX_POOL_WAITING: '30' }).SHED_CHECKOUT_MAX_POOL_WAITING).toBe(
      30,
    );
    expect(() => loadConfig({ ...valid, SHED_MAX_POOL_WAITING: '30', SHED_CHECKOUT_MAX_POOL_WAITING: '31' })).toThrow(
      /SHED_CHECKOUT_MAX_POOL_WAITING \("31"\): must be at most SHED_MAX_POOL_WAITING/,
    );
  });

  it('names a missing variable', () => {
    expect(() => loadConfig({ REDIS_URL: valid.REDIS_URL })).toThrow(/DATABASE_URL \(missing\)/);
  });

  it('names a malformed variable and its value', () => {
    let error: unknown;
    try {
      loadConfig({ ...valid, PORT: 'eighty', REDIS_URL: 'localhost:6379' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/PORT \("eighty"\)/);
    expect((error as Error).message).toMatch(/REDIS_URL \("localhost:6379"\): must be a redis:\/\/ connection URL/);
  });

  it('refuses the brand and mail variables that moved to site.json, naming the field that replaces each', () => {
    const moved = () =>
      loadConfig({ ...valid, BRAND_NAME: 'Old Brand', MAIL_FROM: 'Old <old@example.com>', OWNER_EMAIL: '', PROGRAM_NAME: 'Old' });
    expect(moved).toThrow(ConfigError);
    expect(moved).toThrow(
      [
        'Invalid configuration, fix these environment variables:',
        "  BRAND_NAME is no longer read: set brand.name in the site folder's site.json instead, and remove BRAND_NAME",
        "  PROGRAM_NAME is no longer read: set brand.programName in the site folder's site.json instead, and remove PROGRAM_NAME",
        "  MAIL_FROM is no longer read: set brand.sender (name and address) in the site folder's site.json instead, and remove MAIL_FROM",
      ].join('\n'),
    );
    expect(() => loadConfig({ ...valid, OWNER_EMAIL: 'owner@example.com' })).toThrow(/OWNER_EMAIL is no longer read: set brand\.ownerEmail in/);
  });

  it('treats an empty affiliate key as not configured', () => {
    expect(loadConfig({ ...valid, AFFILIATE_API_KEY: '' }).AFFILIATE_API_KEY).toBeUndefined();
  });

  it('takes a Standard Webhooks secret for the membership webhook: whsec_ and the base64 of 24 to 64 bytes', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const hook = { MEMBERSHIP_WEBHOOK_URL: 'https://members.example.com/hooks/clear' };
    expect(loadConfig({ ...valid, ...hook, MEMBERSHIP_WEBHOOK_SECRET: secret }).MEMBERSHIP_WEBHOOK_SECRET).toBe(secret);
    for (const refused of [
      undefined,
      'f'.repeat(64),
      `whsec_${Buffer.alloc(16, 7).toString('base64')}`,
      `whsec_${Buffer.alloc(65, 7).toString('base64')}`,
      `whsec_${Buffer.alloc(33, 0xfb).toString('base64url')}`,
      `whsec_${Buffer.alloc(32, 7).toString('base64').replace('=', '')}`,
    ])
      expect(() => loadConfig({ ...valid, ...hook, MEMBERSHIP_WEBHOOK_SECRET: refused })).toThrow(
        /MEMBERSHIP_WEBHOOK_SECRET .*must be whsec_ and the base64 of 24 to 64 random bytes/,
      );
  });

  it('keeps test orders away from the members area unless MEMBERSHIP_WEBHOOK_TEST_ORDERS is true', () => {
    expect(loadConfig(valid).MEMBERSHIP_WEBHOOK_TEST_ORDERS).toBe(false);
    expect(loadConfig({ ...valid, MEMBERSHIP_WEBHOOK_TEST_ORDERS: '' }).MEMBERSHIP_WEBHOOK_TEST_ORDERS).toBe(false);
    expect(loadConfig({ ...valid, MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'true' }).MEMBERSHIP_WEBHOOK_TEST_ORDERS).toBe(true);
    expect(() => loadConfig({ ...valid, MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'yes' })).toThrow(/MEMBERSHIP_WEBHOOK_TEST_ORDERS .*must be true or false/);
  });

  it('keeps 90 days of event data and 30 days of audit addresses unless told otherwise', () => {
    expect(loadConfig(valid)).toMatchObject({ RETENTION_DAYS: 90, AUDIT_IP_RETENTION_DAYS: 30, RETENTION_BATCH_SIZE: 1000 });
    expect(loadConfig({ ...valid, RETENTION_DAYS: '365', AUDIT_IP_RETENTION_DAYS: '7' })).toMatchObject({
      RETENTION_DAYS: 365,
      AUDIT_IP_RETENTION_DAYS: 7,
    });
  });

  it.each([
    ['RETENTION_DAYS', '3', /RETENTION_DAYS \("3"\): must not be less than 7/],
    ['RETENTION_DAYS', 'ninety', /RETENTION_DAYS \("ninety"\)/],
    ['AUDIT_IP_RETENTION_DAYS', '0', /AUDIT_IP_RETENTION_DAYS \("0"\): must not be less than 1/],
    ['RETENTION_BATCH_SIZE', '0', /RETENTION_BATCH_SIZE \("0"\)/],
  ])('refuses %s=%p', (name, value, message) => {
    expect(() => loadConfig({ ...valid, [name]: value })).toThrow(message);
  });

  describe('a sandbox under NODE_ENV=production', () => {
    const production = { ...valid, NODE_ENV: 'production', INVITATION_TOKEN_KEY: 'a'.repeat(64), PAYMENT_PROVIDER: 'sandbox' };
    const own = `whsec_${'b'.repeat(48)}`;

    it('needs a SANDBOX_WEBHOOK_SECRET of its own, at least 32 characters', () => {
      expect(loadConfig({ ...production, SANDBOX_WEBHOOK_SECRET: own }).SANDBOX_WEBHOOK_SECRET).toBe(own);
      expect(() => loadConfig({ ...production, SANDBOX_WEBHOOK_SECRET: '' })).toThrow(
        /SANDBOX_WEBHOOK_SECRET \(not set, its development default\)/,
      );
      expect(() => loadConfig(production)).toThrow(
        /SANDBOX_WEBHOOK_SECRET \(not set, its development default\): must be a secret of your own, at least 32 characters/,
      );
      for (const refused of [DEV_SANDBOX_WEBHOOK_SECRET, `whsec_${'c'.repeat(25)}`]) {
        expect(() => loadConfig({ ...production, SANDBOX_WEBHOOK_SECRET: refused })).toThrow(
          /SANDBOX_WEBHOOK_SECRET \(set, value hidden\): must be a secret of your own.*openssl rand -hex 24/,
        );
      }
    });

    it('leaves the development default to local runs and to Stripe deployments', () => {
      expect(loadConfig({ ...valid, PAYMENT_PROVIDER: 'sandbox' }).SANDBOX_WEBHOOK_SECRET).toBe(DEV_SANDBOX_WEBHOOK_SECRET);
      expect(loadConfig({ ...valid, SANDBOX_WEBHOOK_SECRET: '' }).SANDBOX_WEBHOOK_SECRET).toBe(DEV_SANDBOX_WEBHOOK_SECRET);
      expect(loadConfig({ ...production, PAYMENT_PROVIDER: 'stripe' }).SANDBOX_WEBHOOK_SECRET).toBe(DEV_SANDBOX_WEBHOOK_SECRET);
    });
  });

  it('decides the payment provider with the rest of the configuration, before a process connects anywhere', () => {
    expect(() => loadProcessConfig(valid)).toThrow(/PAYMENT_PROVIDER \(missing\)/);
    expect(() => loadProcessConfig({ ...valid, PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /all three are required with PAYMENT_PROVIDER=stripe/,
    );
    expect(loadProcessConfig({ ...valid, PAYMENT_PROVIDER: 'sandbox' }).paymentProvider()).toBe('sandbox');
  });

  it('serves the API documentation in production to admins only unless API_DOCS=public', () => {
    expect(loadConfig(valid).API_DOCS).toBe('admin');
    expect(loadConfig({ ...valid, API_DOCS: 'public' }).API_DOCS).toBe('public');
    expect(() => loadConfig({ ...valid, API_DOCS: 'everyone' })).toThrow(/API_DOCS \("everyone"\): must be "admin" or "public"/);
  });
  describe('the web settings read at start (once Vite build arguments)', () => {
    it('refuses a set VITE_* variable at boot, naming the variable that replaced it', () => {
      const refused = () => loadConfig({ ...valid, VITE_GA4_ID: 'G-OLDBUILD', VITE_APP_DOWNLOAD_URL: 'https://app.example.com/get' });
      expect(refused).toThrow(ConfigError);
      expect(refused).toThrow(/VITE_GA4_ID is no longer read: rename it to GA4_MEASUREMENT_ID/);
      expect(refused).toThrow(/VITE_APP_DOWNLOAD_URL is no longer read: rename it to APP_DOWNLOAD_URL/);
    });

    it('lets an empty VITE_* line of an old .env pass: it switched nothing on', () => {
      expect(() => loadConfig({ ...valid, VITE_META_PIXEL_ID: '', VITE_FIRSTPROMOTER_ID: ' ' })).not.toThrow();
    });

    it('reads the ids and links, each optional and checked', () => {
      expect(loadConfig(valid)).toMatchObject({ FIRSTPROMOTER_ID: undefined, PROGRAM_APP_URL: undefined });
      const members = 'https://members.example.com';
      const config = loadConfig({ ...valid, FIRSTPROMOTER_ID: 'abc123', PROGRAM_APP_URL: members, APP_DOWNLOAD_URL: '' });
      expect(config).toMatchObject({ FIRSTPROMOTER_ID: 'abc123', PROGRAM_APP_URL: members, APP_DOWNLOAD_URL: undefined });
      expect(() => loadConfig({ ...valid, MEMBERS_REGISTER_URL: 'members.example.com/register' })).toThrow(/MEMBERS_REGISTER_URL/);
      expect(() => loadConfig({ ...valid, FIRSTPROMOTER_ID: '<script>' })).toThrow(
        /FIRSTPROMOTER_ID \("<script>"\): must be the FirstPromoter account id/,
      );
    });
  });
});
