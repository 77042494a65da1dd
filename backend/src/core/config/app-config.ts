import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  validateSync,
} from 'class-validator';
import { isIP } from 'node:net';
import type { PaymentProviderName } from '@contracts/payments';

/** The sandbox's signing secret outside production; public in this repository, so production refuses it. */
export const DEV_SANDBOX_WEBHOOK_SECRET = 'whsec_sandboxlocalonly0000000000';

export const STRIPE_KEYS_REQUIRED =
  'Invalid configuration, fix these environment variables:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: all three are required with PAYMENT_PROVIDER=stripe';

/** How request log lines name the client (backend/src/common/client-address.ts). */
export type ClientAddressLogging = 'truncated' | 'hashed' | 'none';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** `true` or `false` (empty: false); anything else is left as it is for the validator to refuse. */
const toFlag = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' || value === '' ? false : value);

/** A comma-separated list of whole days, each after the one before (a retry schedule). */
function IsIncreasingDays() {
  return ValidateBy({
    name: 'isIncreasingDays',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        value.split(',').every((day, i, days) => Number(day) >= 1 && (i === 0 || Number(day) > Number(days[i - 1]))),
      defaultMessage: () => 'must be at least 1 day, each later than the one before, such as 3,5,7',
    },
  });
}

/**
 * A Standard Webhooks signing secret: `whsec_` and padded base64 of 24 to 64 bytes. Strict base64,
 * so every receiver's decoder reads the same key as the worker signs with.
 */
function IsStandardWebhookSecret() {
  return ValidateBy({
    name: 'isStandardWebhookSecret',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        const match = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/.exec(value);
        const bytes = match ? Buffer.from(match[1], 'base64').length : 0;
        return bytes >= 24 && bytes <= 64;
      },
      defaultMessage: () =>
        'must be whsec_ and the base64 of 24 to 64 random bytes (echo "whsec_$(openssl rand -base64 32)"); required with MEMBERSHIP_WEBHOOK_URL',
    },
  });
}

/** Fastify's `trustProxy`: trust nobody, everybody, the last N hops, or these proxy addresses. */
export type TrustProxy = boolean | number | string[];

const toTrustProxy = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
};

/** proxy-addr's names for the loopback, link-local and private ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const TRUST_PROXY_HELP =
  'must be false, true (trusts every X-Forwarded-For: only behind a proxy that overwrites it), a hop count (1, 2, …) or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.0/8,192.168.1.7, or loopback)';

function IsTrustProxy(): PropertyDecorator {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
        (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string' && isProxyAddress(entry))),
      defaultMessage: (args) => {
        const value = args?.value as unknown;
        const bad = Array.isArray(value) ? (value as unknown[]).find((entry) => !isProxyAddress(String(entry))) : undefined;
        return bad === undefined
          ? TRUST_PROXY_HELP
          : `${TRUST_PROXY_HELP}; "${typeof bad === 'string' ? bad : JSON.stringify(bad)}" is not an address or CIDR`;
      },
    },
  });
}

/**
 * Every environment variable either process reads. `.env.example` documents the same list;
 * boot stops with the name of the first bad variable, never with a stack trace from deep inside.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** The site's own origin: CORS allows only this origin, and account and admin writes only from it. */
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_URL = 'http://localhost:3000';

  /**
   * Where the worker reaches the API itself (the sandbox's webhook deliveries); PUBLIC_URL when
   * unset. Inside containers the public address may not be reachable, e.g. http://proxy under Compose.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  INTERNAL_API_URL?: string;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL: string;

  /**
   * Postgres connections one API process may hold. Every API process and every worker holds its
   * own pool: keep API processes × DATABASE_POOL_SIZE + workers × WORKER_DATABASE_POOL_SIZE (+ a
   * few for migrations and psql) under the server's max_connections (README: Connection budget).
   */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(200)
  DATABASE_POOL_SIZE = 20;

  /**
   * Postgres connections one worker may hold, however long its backlog: its jobs wait for one of
   * these, never for the API's, so a backlog cannot starve buyers' requests of connections. More
   * than WORKER_CONCURRENCY: besides the jobs in flight, each holding one (a payment job its
   * order's row lock), the outbox relay, the reconciler and the ledger's batched statements need
   * connections of their own. (The sandbox's provider reads, which once took a second connection
   * here under a job's row lock, have a pool of their own.)
   */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(200)
  @ValidateBy({
    name: 'aboveWorkerConcurrency',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value > (args?.object as AppConfig).WORKER_CONCURRENCY,
      defaultMessage: () =>
        'must be more than WORKER_CONCURRENCY: the outbox relay and the ledger need connections beside the jobs in flight',
    },
  })
  WORKER_DATABASE_POOL_SIZE = 25;

  /**
   * Longest an API request waits for a free connection of its pool (also the limit for opening
   * one). Past it the request is answered 503 "busy" with Retry-After, instead of keeping the
   * buyer waiting; the worker's jobs may wait longer (they retry anyway).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30_000)
  DATABASE_ACQUIRE_TIMEOUT_MS = 2000;

  /**
   * Connections of each API process's pool that only the money path may take (payment and setup
   * intents, subscription confirmation, verification polls, webhooks, the sandbox's card
   * confirmation, one-click purchases). Leads, invitations, the beacon and every other route share
   * the rest; when those are all busy they wait at most SHED_WAIT_MS and are then refused.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(199)
  @ValidateBy({
    name: 'belowPoolSize',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value < (args?.object as AppConfig).DATABASE_POOL_SIZE,
      defaultMessage: () => 'must be less than DATABASE_POOL_SIZE: the other routes need at least one connection',
    },
  })
  SHED_MONEY_RESERVED_CONNECTIONS = 5;

  /**
   * Longest a request outside the money path waits for one of the shared connections before it is
   * answered 503 "busy" (the money path waits up to DATABASE_ACQUIRE_TIMEOUT_MS instead).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(30_000)
  SHED_WAIT_MS = 250;

  /**
   * Event-loop delay (ms) above which the API refuses requests outside the money path at once
   * (503 "busy"): the process is so far behind that every answer would be late.
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  SHED_EVENT_LOOP_DELAY_MS = 500;

  /** Event-loop delay (ms) above which even the money path is refused at once; at least SHED_EVENT_LOOP_DELAY_MS. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  @ValidateBy({
    name: 'notBelowLowPriorityDelay',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value >= (args?.object as AppConfig).SHED_EVENT_LOOP_DELAY_MS,
      defaultMessage: () => 'must be at least SHED_EVENT_LOOP_DELAY_MS: the money path is refused last',
    },
  })
  SHED_MONEY_EVENT_LOOP_DELAY_MS = 2000;

  /**
   * Callers already waiting for a connection of the API's pool beyond which another is refused at
   * once (503 "busy") rather than queued for DATABASE_ACQUIRE_TIMEOUT_MS: a line that long would
   * not be served in time anyway.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  SHED_MAX_POOL_WAITING = 100;

  /**
   * The same line's length beyond which a checkout being started (a payment or setup intent) is
   * refused at once: past capacity a new buyer is turned away before typing a card, and the line
   * is left to purchases already under way. At most SHED_MAX_POOL_WAITING.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  @ValidateBy({
    name: 'notAboveMaxPoolWaiting',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value <= (args?.object as AppConfig).SHED_MAX_POOL_WAITING,
      defaultMessage: () => 'must be at most SHED_MAX_POOL_WAITING: a checkout being started never waits longer than a purchase under way',
    },
  })
  SHED_CHECKOUT_MAX_POOL_WAITING = 50;

  /** Seconds a refused ("busy") client is asked to wait before trying again (its Retry-After header). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  SHED_RETRY_AFTER_S = 2;

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// connection URL' })
  REDIS_URL: string;

  /**
   * Redis's password when REDIS_URL carries none (a password in the URL wins). Compose passes it
   * this way so REDIS_URL can stay a plain address.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  REDIS_PASSWORD?: string = undefined;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(10_485_760)
  BODY_LIMIT_BYTES = 16_384;

  /**
   * Body limit of the payment webhook route only: a provider's event can exceed BODY_LIMIT_BYTES
   * (Stripe's carry whole objects), and one refused with 413 would be lost until Stripe retries.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(10_485_760)
  WEBHOOK_BODY_LIMIT_BYTES = 1_048_576;

  /**
   * The webhook route's body limit when the sandbox is the provider (instead of
   * WEBHOOK_BODY_LIMIT_BYTES): its own events are small (the largest, a payment intent with its
   * last error, measures under 1 KiB), so nobody may make the API read a megabyte per request. The
   * route is then also under the per-client RATE_LIMIT_WRITES, as every public write is.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1_048_576)
  SANDBOX_WEBHOOK_BODY_LIMIT_BYTES = 65_536;

  /**
   * Which proxies in front of the API may state the client's address in X-Forwarded-For; the
   * rate limits key on the client address this yields. Fastify's own `trustProxy` semantics.
   */
  @Transform(toTrustProxy)
  @IsTrustProxy()
  TRUST_PROXY: TrustProxy = false;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  RATE_LIMIT_WINDOW_MS = 60_000;

  /** Requests one client may make to a public write endpoint per window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_WRITES = 30;

  @IsString()
  STATIC_DIR = 'frontend/dist';

  @IsUrl({ require_tld: false, require_protocol: true })
  AFFILIATE_API_URL = 'https://firstpromoter.com/api/v1';

  /** Empty means the affiliate service is not configured: jobs record that instead of sending. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AFFILIATE_API_KEY?: string;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  AFFILIATE_TIMEOUT_MS = 10_000;

  /**
   * The FirstPromoter account id the pages' affiliate script (cdn.firstpromoter.com) runs with.
   * Unset: no script, and FirstPromoter's hosts are not in the Content-Security-Policy.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: "must be the FirstPromoter account id (letters and digits, as in its script's cid)" })
  FIRSTPROMOTER_ID?: string = undefined;

  /** The members' app the success page's 'Access Your Program' opens. Unset: https://app.<the brand's site host>. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['https', 'http'] })
  PROGRAM_APP_URL?: string = undefined;

  /** Where 'Register Your Account Now' leads after a purchase. Unset: <PROGRAM_APP_URL>/register. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['https', 'http'] })
  MEMBERS_REGISTER_URL?: string = undefined;

  /** Where 'Download the App' leads after a purchase. Unset: <PROGRAM_APP_URL>/download. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['https', 'http'] })
  APP_DOWNLOAD_URL?: string = undefined;

  /**
   * The affiliate cookie's lifetime in days: a lead's stored referral or tracking id earns the
   * sale only within this many days of the lead, and only when the checkout carries none.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  AFFILIATE_COOKIE_DAYS = 30;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  OUTBOX_POLL_MS = 250;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_BATCH_SIZE = 200;

  /** A dispatched job that has not reported done after this long is handed to BullMQ again. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  OUTBOX_REDISPATCH_AFTER_MS = 120_000;

  /**
   * How long a job keeps retrying before it gives up (is "exhausted"): as long as the third
   * parties retry on their side (Stripe redelivers webhooks for up to three days). A job is only
   * exhausted once this much time has passed since it was handed to BullMQ; it then waits on the
   * admin's "Jobs that gave up" list for a retry.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2_592_000)
  JOB_RETRY_HORIZON_S = 259_200;

  /** First retry delay; doubles each attempt (with jitter) up to JOB_BACKOFF_MAX_MS. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  JOB_BACKOFF_MS = 1000;

  /** Longest wait between two attempts of a job, however many failed before. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  JOB_BACKOFF_MAX_MS = 3_600_000;

  /** How often the worker's payment reconciler looks for orders and paid effects that webhooks and jobs left behind. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  RECONCILE_INTERVAL_S = 300;

  /**
   * How long an order may stay unsettled (or a webhook event unapplied, or a paid order without
   * its paid effects) before the reconciler re-reads it from the provider and repairs it.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RECONCILE_SETTLE_AFTER_S = 1800;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  WORKER_CONCURRENCY = 20;

  /**
   * Jobs one worker runs at once on the tracking queue (affiliate signups): short HTTP calls
   * that mostly wait, so a launch's backlog drains faster with more of them in flight. The
   * e-mail and payment queues keep WORKER_CONCURRENCY, which bounds SMTP connections.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  TRACKING_CONCURRENCY = 50;

  /**
   * OS scheduling niceness of the worker process (0-19). Background jobs can wait a few seconds;
   * buyers cannot: where API and worker share cores, the worker yields CPU under contention.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(19)
  WORKER_NICENESS = 10;

  /**
   * Seconds a process may take from SIGTERM/SIGINT to exit: the API finishes the requests it has
   * taken, the worker the jobs in flight. It gives up one second before this and exits 1, so an
   * orchestrator's stop timeout (Compose's `stop_grace_period`) set to the same value never has
   * to kill it.
   */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(3600)
  SHUTDOWN_TIMEOUT_S = 30;

  /**
   * A file the worker touches every few seconds while its queue consumers run; a health check
   * (Compose's) calls the worker unhealthy when it grows old. Unset: none is written.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  WORKER_HEARTBEAT_FILE?: string = undefined;

  /** Stripe's secret key (sk_test_… / sk_live_…). Unset: checkout runs on the offline sandbox. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(sk|rk)_(test|live)_\w+$/, { message: 'must be a Stripe secret key (sk_test_… or sk_live_…)' })
  STRIPE_SECRET_KEY?: string = undefined;

  /** Stripe's publishable key (pk_…), handed to the browser; required with STRIPE_SECRET_KEY. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^pk_(test|live)_\w+$/, { message: 'must be a Stripe publishable key (pk_test_… or pk_live_…)' })
  STRIPE_PUBLISHABLE_KEY?: string = undefined;

  /** Signing secret of the webhook endpoint (whsec_…, or what `stripe listen` prints); required with STRIPE_SECRET_KEY. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^whsec_\w+$/, { message: 'must be a Stripe webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string = undefined;

  /**
   * The Customer Portal configuration (bpc_…) 'Manage billing' opens: cancel at period end, update
   * the card, see invoices. `npm run stripe:setup` makes it and prints the id. Unset: the
   * account's default configuration, as set in the Stripe dashboard.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^bpc_\w+$/, { message: 'must be a Customer Portal configuration id (bpc_…), as npm run stripe:setup prints it' })
  STRIPE_PORTAL_CONFIGURATION?: string = undefined;

  /** Where the Stripe SDK sends requests: Stripe itself, or a loopback fake in tests. */
  @IsString()
  STRIPE_API_HOST = 'api.stripe.com';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  STRIPE_API_PORT = 443;

  @IsIn(['https', 'http'])
  STRIPE_API_PROTOCOL: 'https' | 'http' = 'https';

  /**
   * Signs the sandbox's webhook events; never reaches a browser. Any local value will do outside
   * production; a sandbox under NODE_ENV=production (a staging site) needs its own secret of at
   * least 32 characters, since anyone can read the default here and sign events with it. Empty:
   * the default.
   */
  @Transform(({ value }: { value: unknown }) => (value === '' ? DEV_SANDBOX_WEBHOOK_SECRET : value))
  @Matches(/^whsec_\w{16,}$/, { message: 'must look like a webhook secret: whsec_ and at least 16 letters or digits' })
  @ValidateBy({
    name: 'ownSandboxSecretInProduction',
    validator: {
      validate: (value: unknown, args) => {
        const config = args?.object as AppConfig;
        if (config.NODE_ENV !== 'production' || config.PAYMENT_PROVIDER !== 'sandbox') return true;
        return typeof value === 'string' && value.length >= 32 && value !== DEV_SANDBOX_WEBHOOK_SECRET;
      },
      defaultMessage: () =>
        'must be a secret of your own, at least 32 characters, when PAYMENT_PROVIDER=sandbox runs with NODE_ENV=production: ' +
        'the development default is public, so anyone could sign sandbox events with it (echo "whsec_$(openssl rand -hex 24)")',
    },
  })
  SANDBOX_WEBHOOK_SECRET = DEV_SANDBOX_WEBHOOK_SECRET;

  /** Intent creations (setup or payment) one client may make per RATE_LIMIT_WINDOW_MS: card testing hits exactly these. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_INTENTS_PER_CLIENT = 10;

  /** Intent creations for one e-mail address per RATE_LIMIT_WINDOW_MS, whichever client asks. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_INTENTS_PER_EMAIL = 5;

  /**
   * Subscription confirmations (POST /api/confirm-subscription) for one checkout per
   * RATE_LIMIT_WINDOW_MS; per client they share RATE_LIMIT_INTENTS_PER_CLIENT's count.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CONFIRMATIONS_PER_ORDER = 5;

  /**
   * Coupon quotes (GET /api/coupons/quote) one client may ask for per RATE_LIMIT_WINDOW_MS: a
   * buyer tries a code or two, while codes are short words that a script could guess.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_COUPON_CHECKS = 20;

  /**
   * Minutes a checkout holds its coupon's redemption while unpaid: after that it no longer counts
   * against the coupon's cap, so checkouts opened and left cannot use a capped coupon up.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_080)
  COUPON_HOLD_MINUTES = 60;

  /** Verification reads the provider at most once per id in this many ms; polls in between answer from Postgres. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  VERIFY_REFRESH_MS = 3000;

  /**
   * Which provider takes the cards: `stripe` (with the three STRIPE_* keys) or `sandbox` (test
   * cards only: nothing is charged). Never chosen by accident: unset, it is `stripe` when
   * STRIPE_SECRET_KEY is set, and the API and worker refuse to start otherwise. `npm start` and
   * `npm test` set `sandbox` for themselves.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['stripe', 'sandbox'], { message: 'must be "stripe" or "sandbox"' })
  PAYMENT_PROVIDER?: PaymentProviderName = undefined;

  /**
   * The provider PAYMENT_PROVIDER names (or Stripe, with its key); a ConfigError when neither says,
   * or when Stripe is named without all three of its keys.
   */
  paymentProvider(): PaymentProviderName {
    const provider = this.PAYMENT_PROVIDER ?? (this.STRIPE_SECRET_KEY ? 'stripe' : undefined);
    if (!provider) {
      throw new ConfigError(
        'Invalid configuration, fix these environment variables:\n' +
          '  PAYMENT_PROVIDER (missing): set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and ' +
          'STRIPE_WEBHOOK_SECRET, or PAYMENT_PROVIDER=sandbox for test cards only (nothing is charged). It is never chosen for you.',
      );
    }
    if (provider === 'stripe' && !(this.STRIPE_SECRET_KEY && this.STRIPE_PUBLISHABLE_KEY && this.STRIPE_WEBHOOK_SECRET)) {
      throw new ConfigError(STRIPE_KEYS_REQUIRED);
    }
    return provider;
  }

  /** The webhook route's body limit: the sandbox's own, or what a provider's events need. */
  get webhookBodyLimitBytes(): number {
    return this.paymentProvider() === 'sandbox' ? this.SANDBOX_WEBHOOK_BODY_LIMIT_BYTES : this.WEBHOOK_BODY_LIMIT_BYTES;
  }

  /**
   * Who may read the API documentation (/api/docs and /api/docs-json) under NODE_ENV=production:
   * `admin`, a signed-in admin only (anyone else gets 404, as if there were none), or `public`.
   * Outside production everyone may.
   */
  @IsIn(['admin', 'public'], { message: 'must be "admin" or "public"' })
  API_DOCS: 'admin' | 'public' = 'admin';

  /** Graph API origin of the Meta Conversions API: Meta itself, or a loopback fake in tests. */
  @IsUrl({ require_tld: false, require_protocol: true })
  META_CAPI_URL = 'https://graph.facebook.com';

  /** Graph API version in the Conversions API path; Meta retires each version about two years after release. */
  @Matches(/^v\d+\.\d+$/, { message: 'must be a Graph API version such as v21.0' })
  META_GRAPH_API_VERSION = 'v21.0';

  /**
   * The Meta pixel (dataset): set, the pages load the pixel after the visitor's consent, and with
   * META_CAPI_ACCESS_TOKEN server-side Purchases go to it too. Unset: no pixel, and its host is
   * not in the Content-Security-Policy. Read at start: no rebuild.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+$/, { message: 'must be the numeric Meta pixel id' })
  META_PIXEL_ID?: string = undefined;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  META_CAPI_ACCESS_TOKEN?: string = undefined;

  /** Sends server events to Events Manager's Test Events tab instead of the live data set. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  META_TEST_EVENT_CODE?: string = undefined;

  /**
   * Which paid charges of a subscription send the server-side Purchase (Meta, GA4): the first
   * only (renewals and instalments are no new purchase), or every one.
   */
  @IsIn(['first', 'every'])
  PURCHASE_EVENT_ON: 'first' | 'every' = 'first';

  /**
   * When the payment sandbox retries a renewal or instalment it failed to charge: days after the
   * first failure, increasing. After the last retry fails, SANDBOX_AFTER_LAST_RETRY says what
   * becomes of the subscription. (Stripe retries on its own schedule, Smart Retries in its
   * dashboard; this system follows its events.)
   */
  @Matches(/^\d{1,3}(,\d{1,3}){0,7}$/, { message: 'must be days after the failure, increasing, separated by commas, such as 3,5,7' })
  @IsIncreasingDays()
  PAYMENT_RETRY_DAYS = '3,5,7';

  get paymentRetryDays(): number[] {
    return this.PAYMENT_RETRY_DAYS.split(',').map(Number);
  }

  /**
   * What the payment sandbox does with a subscription whose last retry failed, as Stripe's setting
   * for it ('If all retries for a payment fail'): cancel it, mark it unpaid, or leave it past due.
   */
  @IsIn(['cancel', 'unpaid', 'past_due'])
  SANDBOX_AFTER_LAST_RETRY: 'cancel' | 'unpaid' | 'past_due' = 'cancel';

  /**
   * How long a member whose renewal or instalment failed keeps access while the provider retries
   * it (past due): days after the first failed charge. Then access ends (the membership-ended
   * e-mail and webhook) until a payment makes the subscription active again.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(365)
  PAST_DUE_GRACE_DAYS = 14;

  /**
   * How often each worker looks for pauses (taken in the cancellation flow) that end within three
   * days, by the provider's clock, and owes their reminder e-mail. Each reminder is owed once.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  PAUSE_REMINDER_INTERVAL_S = 3600;

  /**
   * Where the members area is told who may enter: a signed POST on every access granted or
   * ended. Unset: nobody is told, and each such change is recorded 'skipped: not configured'.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  MEMBERSHIP_WEBHOOK_URL?: string = undefined;

  /**
   * The membership webhook's Standard Webhooks signing secret, `whsec_` and the base64 of 24 to 64
   * random bytes (the spec's shape, which its libraries decode as the HMAC key); required with
   * MEMBERSHIP_WEBHOOK_URL.
   */
  @Transform(emptyToUndefined)
  @ValidateIf((config: AppConfig) => config.MEMBERSHIP_WEBHOOK_URL !== undefined || config.MEMBERSHIP_WEBHOOK_SECRET !== undefined)
  @IsStandardWebhookSecret()
  MEMBERSHIP_WEBHOOK_SECRET?: string = undefined;

  /**
   * Whether test orders (the sandbox, Stripe test keys: orders.livemode false) reach the members
   * area too. Off by default: a test card never lets anyone in. Turn it on for a staging members
   * area, never for the real one. Turned off again, test access the members area was told of is
   * still ended there (MembershipWebhookHandler).
   */
  @Transform(toFlag)
  @IsIn([true, false], { message: 'must be true or false' })
  MEMBERSHIP_WEBHOOK_TEST_ORDERS = false;

  /**
   * How long after a payment the browser that made it may buy another plan with the card it
   * saved, in one click (its buyer key cookie binds it). 0 turns one-click purchases off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1440)
  ONE_CLICK_WINDOW_MINUTES = 30;

  /**
   * How each request's log line names the client, for investigating card testing without keeping
   * who anybody is: its network (IPv4 /24, IPv6 /48), a keyed hash of its address, or nothing.
   */
  @IsIn(['truncated', 'hashed', 'none'])
  LOG_CLIENT_ADDRESS: ClientAddressLogging = 'truncated';

  /** Origin of the GA4 Measurement Protocol: Google itself, or a loopback fake in tests. */
  @IsUrl({ require_tld: false, require_protocol: true })
  GA4_MP_URL = 'https://www.google-analytics.com';

  /**
   * The GA4 web stream (G-…): set, the pages load gtag.js after the visitor's consent, and with
   * GA4_API_SECRET server-side purchases go to it too. Unset: no tag, and Google's hosts are not
   * in the Content-Security-Policy. Read at start: no rebuild.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^G-[A-Z0-9]+$/, { message: 'must be a GA4 measurement id (G-…)' })
  GA4_MEASUREMENT_ID?: string = undefined;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  GA4_API_SECRET?: string = undefined;

  /** Timeout of one Conversions API or Measurement Protocol request. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  ANALYTICS_TIMEOUT_MS = 10_000;

  /** SMTP server that sends receipts (smtp:// or smtps://, credentials in the URL). Unset: receipts are not configured. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string = undefined;

  /** Limit for connecting, the greeting and each SMTP exchange. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  SMTP_TIMEOUT_MS = 15_000;

  /**
   * Invitation gate. `instant`: the answer carries the access token (the browser goes straight to
   * /blackcard); `email`: it does not, and the private link arrives by e-mail. Either way the
   * invitation e-mail with the link is sent.
   */
  @IsIn(['instant', 'email'])
  INVITATION_DELIVERY: 'instant' | 'email' = 'instant';

  /** Days an invitation access token stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  INVITATION_TOKEN_TTL_DAYS = 30;

  /** A resubmission of the same e-mail within this many ms of the last invitation e-mail sends none. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  INVITATION_RESEND_WINDOW_MS = 600_000;

  /**
   * AES-256 key (64 hex digits) sealing access tokens into e-mail jobs; API and worker need the
   * same one. Required in production; elsewhere a fixed development key stands in.
   */
  @Transform(emptyToUndefined)
  @ValidateIf((config: AppConfig) => config.NODE_ENV === 'production' || config.INVITATION_TOKEN_KEY !== undefined)
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hex digits (openssl rand -hex 32); required when NODE_ENV=production' })
  INVITATION_TOKEN_KEY?: string = undefined;

  /**
   * Seconds after a lead is saved that it gets its one reminder to finish the checkout, unless
   * the address has paid or unsubscribed by then. 0 turns the reminders off (leads saved while
   * off owe none). At most 30 days.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  ABANDONED_CHECKOUT_DELAY_S = 3600;

  /** Token validations one client may make per RATE_LIMIT_WINDOW_MS: far more than a visitor needs, far too few to guess a token. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_TOKEN_CHECKS = 20;

  /** Minutes an e-mailed account sign-in link (/account?token=…) stays valid; it works once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  ACCOUNT_LINK_TTL_MINUTES = 30;

  /** Hours an account session opened by a sign-in link lasts (absolute, not extended by activity). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24)
  ACCOUNT_SESSION_TTL_HOURS = 2;

  /** Sign-in link requests (POST /api/account/link) one client may make per RATE_LIMIT_WINDOW_MS. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT = 10;

  /** Sign-in link requests for one e-mail address per RATE_LIMIT_WINDOW_MS, whichever client asks: nobody's inbox gets flooded. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL = 3;

  /**
   * Sign-in links the worker sends to one address in any hour, counted in Postgres: a request
   * beyond it is answered like any other and sends nothing (however the requests were spread).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  ACCOUNT_LINKS_PER_EMAIL_PER_HOUR = 5;

  /** Cookies carry Secure whenever the site is served over https, whatever NODE_ENV says. */
  get secureCookies(): boolean {
    return new URL(this.PUBLIC_URL).protocol === 'https:';
  }

  get INVITATION_TOKEN_KEY_BYTES(): Buffer {
    return this.INVITATION_TOKEN_KEY ? Buffer.from(this.INVITATION_TOKEN_KEY, 'hex') : DEV_INVITATION_TOKEN_KEY;
  }

  /** Lifetime of an admin sign-in, counted from the sign-in (absolute: using the admin pages does not extend it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  ADMIN_SESSION_TTL_HOURS = 12;

  /** Window of the admin sign-in limits below. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  ADMIN_LOGIN_WINDOW_MS = 900_000;

  /** Sign-in attempts one client may make per ADMIN_LOGIN_WINDOW_MS, whatever the address. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ADMIN_LOGINS_PER_CLIENT = 20;

  /** Failed sign-ins for one admin e-mail per ADMIN_LOGIN_WINDOW_MS, from whichever client; a success clears them. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ADMIN_LOGINS_PER_EMAIL = 10;

  /**
   * Bearer token a Prometheus scraper sends to GET /api/metrics (at least 24 characters). Unset:
   * only a signed-in admin can read the metrics.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(24, { message: 'must be at least 24 characters (openssl rand -hex 32)' })
  METRICS_TOKEN?: string = undefined;

  /** Port of the worker's own GET /metrics (job runs, third-party calls, its Postgres pool), behind METRICS_TOKEN; 0: not served. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT = 0;

  /** Address the worker's /metrics listens on: loopback unless a scraper elsewhere needs it. */
  @IsString()
  WORKER_METRICS_HOST = '127.0.0.1';

  /** Longest a scrape waits for each of Postgres and Redis; what does not answer in time is left out. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(10_000)
  METRICS_SOURCE_TIMEOUT_MS = 1000;

  /**
   * Days kept of applied payment event payloads, finished outbox rows and side-effect records,
   * and funnel events; the daily retention job deletes older ones (orders and leads stay). At
   * least a week: longer than Stripe retries a webhook (3 days), so a retried event is still
   * recognised as one already stored.
   */
  @Transform(toInt)
  @IsInt()
  @Min(7)
  @Max(3650)
  RETENTION_DAYS = 90;

  /** Days the admin audit log keeps the client address of an entry; the retention job clears older ones. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  AUDIT_IP_RETENTION_DAYS = 30;

  /** Rows one retention statement deletes or updates: each batch is a short transaction of its own. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  RETENTION_BATCH_SIZE = 1000;
}

/** Outside production only (validation requires a real key there); public in this repository, so it protects nothing. */
const DEV_INVITATION_TOKEN_KEY = Buffer.from('6465762d6f6e6c792d696e7669746174696f6e2d746f6b656e2d6b65792d3332', 'hex');

export class ConfigError extends Error {}

/**
 * A bad value as the error may print it: secrets never, a URL without its password; a default
 * refused in this environment (a cross-field rule) says it was not set.
 */
function shownValue(name: string, value: string, given: boolean): string {
  if (/SECRET|KEY|TOKEN|PASSWORD/.test(name)) return given ? 'set, value hidden' : 'not set, its development default';
  const shown = JSON.stringify(value.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@'));
  return given ? shown : `not set, default ${shown}`;
}

/**
 * Settings no longer read, each with what replaced it: a deployment upgraded with its old .env is
 * told, rather than losing its analytics (once build settings, now read at start) or its brand
 * (now in the site folder's site.json) unnoticed.
 */
const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  VITE_GA4_ID: 'rename it to GA4_MEASUREMENT_ID (read when the server starts; no rebuild)',
  VITE_META_PIXEL_ID: 'rename it to META_PIXEL_ID (read when the server starts; no rebuild)',
  VITE_FIRSTPROMOTER_ID: 'rename it to FIRSTPROMOTER_ID (read when the server starts; no rebuild)',
  VITE_PROGRAM_APP_URL: 'rename it to PROGRAM_APP_URL (read when the server starts; no rebuild)',
  VITE_MEMBERS_REGISTER_URL: 'rename it to MEMBERS_REGISTER_URL (read when the server starts; no rebuild)',
  VITE_APP_DOWNLOAD_URL: 'rename it to APP_DOWNLOAD_URL (read when the server starts; no rebuild)',
  BRAND_NAME: "set brand.name in the site folder's site.json instead, and remove BRAND_NAME",
  PROGRAM_NAME: "set brand.programName in the site folder's site.json instead, and remove PROGRAM_NAME",
  MAIL_FROM: "set brand.sender (name and address) in the site folder's site.json instead, and remove MAIL_FROM",
  OWNER_EMAIL: "set brand.ownerEmail in the site folder's site.json instead, and remove OWNER_EMAIL",
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const retired = Object.keys(RETIRED_SETTINGS).filter((key) => env[key]?.trim());
  if (retired.length > 0) {
    const lines = retired.map((key) => `  ${key} is no longer read: ${RETIRED_SETTINGS[key]}`);
    throw new ConfigError(`Invalid configuration, fix these environment variables:\n${lines.join('\n')}`);
  }
  const known = Object.keys(new AppConfig()).concat(['DATABASE_URL', 'REDIS_URL', 'AFFILIATE_API_KEY']);
  const raw: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const reason = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
      const shown = e.value === undefined ? 'missing' : shownValue(e.property, String(e.value), Boolean(raw[e.property]));
      return `  ${e.property} (${shown}): ${reason.replace(e.property, '').trim()}`;
    });
    throw new ConfigError(`Invalid configuration, fix these environment variables:\n${lines.join('\n')}`);
  }
  return config;
}

/**
 * The configuration a process (API, worker, migration) starts with, checked whole before it opens
 * any connection: every variable valid and the payment provider decided, with its keys. A bad
 * setting ends the boot at once, named, never after half a minute of retrying a database.
 */
export function loadProcessConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const config = loadConfig(env);
  config.paymentProvider();
  return config;
}
