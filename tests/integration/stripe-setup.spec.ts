import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, PLANS } from '@contracts/plans';
import { STRIPE_API_VERSION } from '@core/payments/providers/stripe/stripe-client';
import { STRIPE_WEBHOOK_EVENTS } from '@core/payments/providers/stripe/stripe-events';
import { FakeStripeServer } from '../fakes/stripe-server';
import { runBuiltScript, type ScriptRun } from './support/built-script';

/**
 * `npm run stripe:setup` (the compiled command) against the Stripe fake: the first run makes the
 * webhook endpoint, the Customer Portal configuration and the catalogue's Prices and prints the
 * endpoint's signing secret; a second run writes nothing. An endpoint or Price that differs is
 * brought to what the code reads and charges.
 */
const SECRET_KEY = 'sk_test_setupspecsecretkey0123';
const PUBLIC_URL = 'https://shop.example.com';
const WEBHOOK_URL = `${PUBLIC_URL}/api/webhooks/stripe`;
/** The catalogue's recurring plans (site.json): subscriptions and instalment plans (billed monthly). */
const RECURRING = PLANS.filter((p) => p.kind === 'subscription' || p.instalments).map((p) => ({ ...p, interval: p.interval ?? 'month' }));
/** Their Prices, in minor units, under lookup keys free of the brand. */
const CATALOGUE = Object.fromEntries(RECURRING.map((p) => [`plan-${p.id}-${p.interval}ly`, toMinorUnits(p.amount, CURRENCY)]));
/** How often each lookup key's Price bills. */
const INTERVALS = Object.fromEntries(RECURRING.map((p) => [`plan-${p.id}-${p.interval}ly`, p.interval]));
const STANDARD = OFFERS.default;

const stripe = new FakeStripeServer();

beforeAll(() => stripe.start());
afterAll(() => stripe.stop());
beforeEach(() => stripe.reset());

/**
 * Runs the compiled `npm run stripe:setup` with only these settings (one set to undefined is left
 * out): nothing of the test run's own environment (its DATABASE_URL, …) but its SITE_DIR reaches the command.
 */
function setup(env: NodeJS.ProcessEnv = {}): Promise<ScriptRun> {
  return runBuiltScript('stripe-setup', {
    env: {
      PATH: process.env.PATH,
      ENV_FILE: 'none',
      STRIPE_SECRET_KEY: SECRET_KEY,
      PUBLIC_URL,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
      // The site folder this run reads its catalogue from, so the command sets up the same Prices.
      SITE_DIR: process.env.SITE_DIR,
      ...env,
    },
  });
}

const lookupKeysOf = () =>
  Object.fromEntries([...stripe.prices.values()].filter((p) => p.lookup_key).map((p) => [p.lookup_key, p.unit_amount]));

it('creates the endpoint, portal configuration and Prices once, prints the whsec_ then, and changes nothing on a second run', async () => {
  const first = await setup();
  expect(first).toMatchObject({ code: 0, stderr: '' });

  const endpoints = [...stripe.webhookEndpoints.values()];
  expect(endpoints).toHaveLength(1);
  expect(endpoints[0]).toMatchObject({ url: WEBHOOK_URL, api_version: STRIPE_API_VERSION, status: 'enabled' });
  expect(endpoints[0].enabled_events).toEqual([...STRIPE_WEBHOOK_EVENTS]);
  const secret = `whsec_fake${endpoints[0].id.slice('we_fake'.length)}`;
  expect(first.stdout).toContain(`STRIPE_WEBHOOK_SECRET=${secret}`);

  const portals = [...stripe.portalConfigurations.values()];
  expect(portals).toHaveLength(1);
  expect(portals[0].features).toMatchObject({
    subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
    subscription_update: { enabled: false },
  });
  expect(first.stdout).toContain(`STRIPE_PORTAL_CONFIGURATION=${String(portals[0].id)}`);

  expect(lookupKeysOf()).toEqual(CATALOGUE);
  for (const price of stripe.prices.values()) {
    expect(price).toMatchObject({ currency: CURRENCY.toLowerCase(), recurring: { interval: INTERVALS[String(price.lookup_key)] } });
  }
  expect(first.stdout).not.toContain('Nothing to change');
  // Every request authenticated with the key, pinned to the version; the key itself is never printed.
  expect(stripe.requests.every((r) => r.authorization === `Bearer ${SECRET_KEY}` && r.stripeVersion === STRIPE_API_VERSION)).toBe(true);
  expect(first.stdout).not.toContain(SECRET_KEY);

  stripe.requests.length = 0;
  const second = await setup({ STRIPE_PORTAL_CONFIGURATION: String(portals[0].id) });
  expect(second).toMatchObject({ code: 0, stderr: '' });
  expect(stripe.requests.length).toBeGreaterThan(0);
  expect(stripe.writes()).toEqual([]);
  expect(second.stdout).toContain('Nothing to change.');
  expect(second.stdout).not.toContain('whsec_');
  expect(second.stdout).not.toContain('Put these in .env');
});

it('updates an endpoint for the URL to the exact event list, and says its API version cannot be changed', async () => {
  const [, ...fewer] = STRIPE_WEBHOOK_EVENTS;
  const existing = stripe.addWebhookEndpoint({
    url: WEBHOOK_URL,
    enabledEvents: [...fewer, 'customer.created'],
    apiVersion: '2025-02-24.acacia',
  });

  const run = await setup();
  expect(run.code).toBe(0);
  expect(stripe.webhookEndpoints.size).toBe(1);
  expect(stripe.webhookEndpoints.get(existing.id)?.enabled_events).toEqual([...STRIPE_WEBHOOK_EVENTS]);
  const update = stripe.writes().find((r) => r.path === `/v1/webhook_endpoints/${existing.id}`);
  expect(update?.params).not.toHaveProperty('api_version');
  expect(run.stdout).toContain(`added ${STRIPE_WEBHOOK_EVENTS[0]}`);
  expect(run.stdout).toContain('removed customer.created');
  expect(run.stdout).toContain(`Its API version is 2025-02-24.acacia, not ${STRIPE_API_VERSION}, and Stripe cannot change`);
  // No new endpoint, so no new secret: the one in .env stays right.
  expect(run.stdout).not.toContain('STRIPE_WEBHOOK_SECRET=');
});

it('replaces a Price whose amount differs by a new one that takes the lookup key over', async () => {
  const old = stripe.addPrice({ lookupKey: 'plan-standard-monthly', unitAmount: 4700 });

  const run = await setup();
  expect(run.code).toBe(0);
  const create = stripe.writes().find((r) => r.path === '/v1/prices' && r.params.lookup_key === 'plan-standard-monthly');
  expect(create?.params).toMatchObject({ unit_amount: String(toMinorUnits(STANDARD.amount, CURRENCY)), transfer_lookup_key: 'true' });
  expect(lookupKeysOf()).toEqual(CATALOGUE);
  expect(stripe.prices.get(old.id as string)?.lookup_key).toBeNull();
  expect(run.stdout).toContain(`${String(old.id)} charged 47.00 ${CURRENCY}`);
});

it('keeps charging a Price of an older release under its branded key while its terms hold, and makes none beside it', async () => {
  const legacy = stripe.addPrice({ lookupKey: 'clear-standard-monthly', unitAmount: toMinorUnits(STANDARD.amount, CURRENCY) });
  const outdated = stripe.addPrice({ lookupKey: 'clear-premium-monthly', unitAmount: 100 });

  const run = await setup();
  expect(run.code).toBe(0);
  const created = stripe
    .writes()
    .filter((r) => r.path === '/v1/prices')
    .map((r) => r.params.lookup_key);
  expect(created).not.toContain('plan-standard-monthly');
  expect(created).toContain('plan-premium-monthly');
  expect(run.stdout).toContain(
    `Price plan-standard-monthly (${STANDARD.amount.toFixed(2)} ${CURRENCY} a month): up to date (${String(legacy.id)})`,
  );
  // The older release (a rolling upgrade) still finds its Price: its key is left where it is.
  expect(stripe.prices.get(legacy.id as string)?.lookup_key).toBe('clear-standard-monthly');
  expect(stripe.prices.get(outdated.id as string)?.lookup_key).toBe('clear-premium-monthly');
});

it('stops with a readable message and exit 1 without STRIPE_SECRET_KEY, calling nothing', async () => {
  const run = await setup({ STRIPE_SECRET_KEY: undefined });
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toMatch(/^STRIPE_SECRET_KEY is not set: .+npm run stripe:setup again\.$/);
  expect(stripe.requests).toEqual([]);
});
