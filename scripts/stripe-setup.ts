import type Stripe from 'stripe';
import { minorUnitDigits, minorUnitsPerMajor } from '@contracts/money';
import { site } from '@contracts/site/site';
import { ConfigError, loadConfig } from '@core/config/app-config';
import { STRIPE_API_VERSION, stripeClient } from '@core/payments/providers/stripe/stripe-client';
import { STRIPE_WEBHOOK_EVENTS } from '@core/payments/providers/stripe/stripe-events';
import { catalogueRecurringPrices, settlePrice } from '@core/payments/providers/stripe/stripe-prices';
import { isLiveKey } from '@core/payments/providers/stripe/stripe.gateway';
import { CliError, runCli } from './lib/cli';

/** The webhook route (PaymentWebhookController under the API's `api` prefix). */
const WEBHOOK_PATH = '/api/webhooks/stripe';
/** Marks the objects this command made, so a later run finds them again. */
const MARKER = { managed_by: 'clear-funnel-stripe-setup' } as const;

/**
 * What 'Manage billing' offers: cancel at the end of the paid period (the app's own cancel does
 * the same), a new card, past invoices. Nothing the app does not follow: no plan changes or
 * pauses (access follows the plan bought), no customer detail changes (the app's e-mail is the
 * buyer's identity).
 */
const PORTAL_FEATURES = {
  subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
  payment_method_update: { enabled: true },
  invoice_history: { enabled: true },
  customer_update: { enabled: false },
  subscription_update: { enabled: false },
  subscription_pause: { enabled: false },
} as const satisfies Stripe.BillingPortal.ConfigurationCreateParams.Features;

/** One line of the plan: what was found or done; `changed` when this run wrote to Stripe. */
interface Step {
  line: string;
  changed: boolean;
}

/** What the operator must put in .env (only values Stripe gave on this run, or that this run made). */
type EnvLines = string[];

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;
/** An amount in Stripe's minor units as a number of whole units and the code: '97.00 USD', '9700 JPY'. */
const amountText = (minorUnits: number, currency: string) =>
  `${(minorUnits / minorUnitsPerMajor(currency)).toFixed(minorUnitDigits(currency))} ${currency.toUpperCase()}`;

/** The endpoint for the URL: found and brought to the event list, or created on the pinned version. */
async function webhookEndpoint(stripe: Stripe, url: string, env: EnvLines): Promise<Step[]> {
  let found: Stripe.WebhookEndpoint | undefined;
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
    if (endpoint.url === url) {
      found = endpoint;
      break;
    }
  }
  if (!found) {
    const created = await stripe.webhookEndpoints.create({
      url,
      enabled_events: [...STRIPE_WEBHOOK_EVENTS],
      api_version: STRIPE_API_VERSION,
      description: `${site.brand.programName} funnel: payments, subscriptions, refunds and disputes`,
      metadata: MARKER,
    });
    // Stripe returns the signing secret in this answer only.
    if (created.secret) env.push(`STRIPE_WEBHOOK_SECRET=${created.secret}`);
    return [
      {
        line: `Webhook endpoint ${url}: created (${created.id}), ${STRIPE_WEBHOOK_EVENTS.length} event types, API version ${STRIPE_API_VERSION}`,
        changed: true,
      },
    ];
  }
  const steps: Step[] = [];
  const eventsRight = sameSet(found.enabled_events, STRIPE_WEBHOOK_EVENTS);
  const disabled = found.status === 'disabled';
  if (!eventsRight || disabled) {
    const added = STRIPE_WEBHOOK_EVENTS.filter((type) => !found.enabled_events.includes(type));
    const removed = found.enabled_events.filter((type) => !(STRIPE_WEBHOOK_EVENTS as readonly string[]).includes(type));
    await stripe.webhookEndpoints.update(found.id, {
      ...(!eventsRight && { enabled_events: [...STRIPE_WEBHOOK_EVENTS] }),
      ...(disabled && { disabled: false }),
    });
    const changes = [
      ...(added.length ? [`added ${added.join(', ')}`] : []),
      ...(removed.length ? [`removed ${removed.join(', ')}`] : []),
      ...(disabled ? ['enabled it again'] : []),
    ];
    steps.push({ line: `Webhook endpoint ${url} (${found.id}): updated: ${changes.join('; ')}`, changed: true });
  } else {
    steps.push({ line: `Webhook endpoint ${url} (${found.id}): up to date`, changed: false });
  }
  if (found.api_version !== STRIPE_API_VERSION) {
    // Stripe cannot change an endpoint's API version (WebhookEndpointUpdateParams has none).
    steps.push({
      line:
        `  Its API version is ${found.api_version ?? "the account's default"}, not ${STRIPE_API_VERSION}, and Stripe cannot change ` +
        `an endpoint's version. Its events are still read (and counted in funnel_stripe_event_version_total). To move it: ` +
        `delete this endpoint in the Stripe dashboard (Developers → Webhooks), run npm run stripe:setup again at once, ` +
        `put the whsec_… it prints in STRIPE_WEBHOOK_SECRET and restart the API.`,
      changed: false,
    });
  }
  return steps;
}

/** Whether a portal configuration offers exactly PORTAL_FEATURES. */
function portalRight(configuration: Stripe.BillingPortal.Configuration): boolean {
  const f = configuration.features;
  return (
    configuration.active &&
    f.subscription_cancel.enabled &&
    f.subscription_cancel.mode === 'at_period_end' &&
    f.subscription_cancel.proration_behavior === 'none' &&
    f.payment_method_update.enabled &&
    f.invoice_history.enabled &&
    !f.customer_update.enabled &&
    !f.subscription_update.enabled &&
    !f.subscription_pause?.enabled
  );
}

/** The portal configuration this command made (its marker), brought to PORTAL_FEATURES, or a new one. */
async function portalConfiguration(stripe: Stripe, env: EnvLines, configured: string | undefined): Promise<Step[]> {
  let found: Stripe.BillingPortal.Configuration | undefined;
  for await (const configuration of stripe.billingPortal.configurations.list({ limit: 100 })) {
    if (configuration.metadata?.managed_by === MARKER.managed_by) {
      found = configuration;
      break;
    }
  }
  const steps: Step[] = [];
  let id: string;
  if (!found) {
    const created = await stripe.billingPortal.configurations.create({
      name: `${site.brand.programName} funnel`,
      features: PORTAL_FEATURES,
      metadata: MARKER,
    });
    id = created.id;
    steps.push({
      line: `Customer Portal configuration: created (${id}): cancel at period end, update card, invoice history`,
      changed: true,
    });
  } else if (!portalRight(found)) {
    id = found.id;
    await stripe.billingPortal.configurations.update(id, { active: true, features: PORTAL_FEATURES });
    steps.push({
      line: `Customer Portal configuration (${id}): updated to cancel at period end, update card, invoice history`,
      changed: true,
    });
  } else {
    id = found.id;
    steps.push({ line: `Customer Portal configuration (${id}): up to date`, changed: false });
  }
  if (configured !== id) {
    env.push(`STRIPE_PORTAL_CONFIGURATION=${id}`);
    if (configured)
      steps.push({ line: `  STRIPE_PORTAL_CONFIGURATION is ${configured}, not this one: the app opens that one.`, changed: false });
  }
  return steps;
}

/** Each catalogue Price under its lookup key: found, created, or replaced when its amount or terms differ. */
async function prices(stripe: Stripe): Promise<Step[]> {
  const steps: Step[] = [];
  for (const terms of catalogueRecurringPrices()) {
    const { price, created, replaced } = await settlePrice(stripe, terms);
    const what = `Price ${terms.lookupKey} (${amountText(terms.amountCents, terms.currency)} a ${terms.interval})`;
    if (!created) steps.push({ line: `${what}: up to date (${price.id})`, changed: false });
    else if (!replaced) steps.push({ line: `${what}: created (${price.id})`, changed: true });
    else {
      // A Price's amount cannot be edited: the new one takes the lookup key, the old one stays with its subscribers.
      const was = replaced.unit_amount === null ? 'no fixed amount' : amountText(replaced.unit_amount, replaced.currency);
      steps.push({
        line: `${what}: ${replaced.id} charged ${was}${replaced.recurring?.interval === terms.interval ? '' : ` (not once a ${terms.interval})`}; created ${price.id}, which took the lookup key over. Subscriptions already on ${replaced.id} keep paying its amount.`,
        changed: true,
      });
    }
  }
  return steps;
}

async function main(): Promise<void> {
  // Validated as the processes validate it; the setup opens no database or Redis, so those two may be unset.
  const config = loadConfig({ DATABASE_URL: 'postgres://unused', REDIS_URL: 'redis://unused', ...process.env });
  if (!config.STRIPE_SECRET_KEY) {
    throw new CliError(
      'STRIPE_SECRET_KEY is not set: put the secret key of the Stripe account to set up (sk_test_… or sk_live_…) in .env or the environment, and run npm run stripe:setup again.',
    );
  }
  if (!process.env.PUBLIC_URL) {
    throw new CliError(
      `PUBLIC_URL is not set: the webhook endpoint is PUBLIC_URL${WEBHOOK_PATH}, so set it to the site's public address (https://your.domain). On your own machine use stripe listen instead.`,
    );
  }
  const url = `${config.PUBLIC_URL.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
  const stripe = stripeClient(config);
  const mode = isLiveKey(config.STRIPE_SECRET_KEY) ? 'live mode' : 'test mode';
  console.log(`Setting up the Stripe account (${mode}, API version ${STRIPE_API_VERSION}):`);
  const env: EnvLines = [];
  const steps = [
    ...(await webhookEndpoint(stripe, url, env)),
    ...(await portalConfiguration(stripe, env, config.STRIPE_PORTAL_CONFIGURATION)),
    ...(await prices(stripe)),
  ];
  for (const step of steps) console.log(`  ${step.line}`);
  if (!steps.some((step) => step.changed)) console.log('Nothing to change.');
  if (env.length)
    console.log(`\nPut these in .env (or the environment) and restart the API and worker:\n${env.map((line) => `  ${line}`).join('\n')}`);
}

if (require.main === module) {
  // Stripe's own message names what it refused (an invalid key, a URL it will not call); never the key itself.
  runCli(main, 'Stripe setup stopped', [ConfigError]);
}
