import { AppConfig } from './app-config';

/** A setting, or a value derived from settings, of the validated AppConfig. */
type Setting = keyof AppConfig;

/**
 * The class of a section: a named part of the AppConfig, so a module can take the settings it
 * uses and no others. Its `keys` say which; `of` reads them from one validated AppConfig.
 */
export interface ConfigSection<K extends Setting> {
  readonly keys: readonly K[];
  of(config: AppConfig): Readonly<Pick<AppConfig, K>>;
  new (): Readonly<Pick<AppConfig, K>>;
}

/**
 * The base class of a section of these settings. A section reads through to the AppConfig it was
 * made from rather than copying it: a derived value (`paymentProvider()`, `webhookBodyLimitBytes`)
 * still refuses a missing provider only when asked, and a value changed on the AppConfig (as the
 * integration specs do) is what every section sees. Validation stays whole in AppConfig, since
 * several rules compare settings of different sections.
 */
function section<const K extends Setting>(keys: readonly K[]): ConfigSection<K> {
  abstract class Section {
    static readonly keys = keys;

    static of(config: AppConfig): Readonly<Pick<AppConfig, K>> {
      const view = Object.create(this.prototype as object) as Record<K, unknown>;
      for (const key of keys) {
        const method = Object.getOwnPropertyDescriptor(AppConfig.prototype, key)?.value as unknown;
        Object.defineProperty(
          view,
          key,
          typeof method === 'function'
            ? { value: (method as (...args: unknown[]) => unknown).bind(config), enumerable: true }
            : { get: () => config[key], enumerable: true },
        );
      }
      return Object.freeze(view) as Readonly<Pick<AppConfig, K>>;
    }
  }
  return Section as unknown as ConfigSection<K>;
}

/** The HTTP server, what it serves and how it logs, and how a process stops. */
export class ServerConfig extends section([
  'NODE_ENV',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'INTERNAL_API_URL',
  'BODY_LIMIT_BYTES',
  'TRUST_PROXY',
  'STATIC_DIR',
  'API_DOCS',
  'LOG_LEVEL',
  'LOG_CLIENT_ADDRESS',
  'SHUTDOWN_TIMEOUT_S',
]) {}

/** Postgres: where it is and each process's pool. */
export class DatabaseConfig extends section([
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'WORKER_DATABASE_POOL_SIZE',
  'DATABASE_ACQUIRE_TIMEOUT_MS',
]) {}

/** When the API refuses requests ("busy") to keep the money path answering. */
export class LoadSheddingConfig extends section([
  'SHED_MONEY_RESERVED_CONNECTIONS',
  'SHED_WAIT_MS',
  'SHED_EVENT_LOOP_DELAY_MS',
  'SHED_MONEY_EVENT_LOOP_DELAY_MS',
  'SHED_MAX_POOL_WAITING',
  'SHED_CHECKOUT_MAX_POOL_WAITING',
  'SHED_RETRY_AFTER_S',
]) {}

/** Redis, which holds the job queues and the shared rate-limit windows. */
export class RedisConfig extends section(['REDIS_URL', 'REDIS_PASSWORD']) {}

/** How many requests of each kind one client, address or order may make per window. */
export class RateLimitConfig extends section([
  'RATE_LIMIT_WINDOW_MS',
  'RATE_LIMIT_WRITES',
  'RATE_LIMIT_INTENTS_PER_CLIENT',
  'RATE_LIMIT_INTENTS_PER_EMAIL',
  'RATE_LIMIT_CONFIRMATIONS_PER_ORDER',
  'RATE_LIMIT_COUPON_CHECKS',
  'RATE_LIMIT_TOKEN_CHECKS',
  'RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT',
  'RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL',
  'ADMIN_LOGIN_WINDOW_MS',
  'ADMIN_LOGINS_PER_CLIENT',
  'ADMIN_LOGINS_PER_EMAIL',
]) {}

/** The outbox, the jobs' retries and the worker's share of the machine. */
export class QueueConfig extends section([
  'OUTBOX_POLL_MS',
  'OUTBOX_BATCH_SIZE',
  'OUTBOX_REDISPATCH_AFTER_MS',
  'JOB_RETRY_HORIZON_S',
  'JOB_BACKOFF_MS',
  'JOB_BACKOFF_MAX_MS',
  'WORKER_CONCURRENCY',
  'TRACKING_CONCURRENCY',
  'WORKER_NICENESS',
  'WORKER_HEARTBEAT_FILE',
]) {}

/** Stripe's keys and where its SDK sends requests. */
export class StripeConfig extends section([
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PORTAL_CONFIGURATION',
  'STRIPE_API_HOST',
  'STRIPE_API_PORT',
  'STRIPE_API_PROTOCOL',
]) {}

/** Which provider takes the cards, the sandbox's own rules, and how orders and subscriptions are settled. */
export class PaymentsConfig extends section([
  'PAYMENT_PROVIDER',
  'paymentProvider',
  'SANDBOX_WEBHOOK_SECRET',
  'WEBHOOK_BODY_LIMIT_BYTES',
  'SANDBOX_WEBHOOK_BODY_LIMIT_BYTES',
  'webhookBodyLimitBytes',
  'PAYMENT_RETRY_DAYS',
  'paymentRetryDays',
  'SANDBOX_AFTER_LAST_RETRY',
  'PAST_DUE_GRACE_DAYS',
  'PAUSE_REMINDER_INTERVAL_S',
  'RECONCILE_INTERVAL_S',
  'RECONCILE_SETTLE_AFTER_S',
  'VERIFY_REFRESH_MS',
  'COUPON_HOLD_MINUTES',
  'ONE_CLICK_WINDOW_MINUTES',
]) {}

/** The SMTP server, and when a saved lead is reminded by e-mail. */
export class MailConfig extends section(['SMTP_URL', 'SMTP_TIMEOUT_MS', 'ABANDONED_CHECKOUT_DELAY_S']) {}

/** Invitations, account sign-in links and sessions, admin sessions, the key sealing their tokens, and whether cookies are Secure. */
export class AccessConfig extends section([
  'INVITATION_DELIVERY',
  'INVITATION_TOKEN_TTL_DAYS',
  'INVITATION_RESEND_WINDOW_MS',
  'INVITATION_TOKEN_KEY',
  'INVITATION_TOKEN_KEY_BYTES',
  'ACCOUNT_LINK_TTL_MINUTES',
  'ACCOUNT_SESSION_TTL_HOURS',
  'ACCOUNT_LINKS_PER_EMAIL_PER_HOUR',
  'ADMIN_SESSION_TTL_HOURS',
  'secureCookies',
]) {}

/** FirstPromoter: its API, the pages' script and how long a referral counts. */
export class AffiliateConfig extends section([
  'AFFILIATE_API_URL',
  'AFFILIATE_API_KEY',
  'AFFILIATE_TIMEOUT_MS',
  'AFFILIATE_COOKIE_DAYS',
  'FIRSTPROMOTER_ID',
]) {}

/** Meta's pixel and Conversions API, GA4's tag and Measurement Protocol. */
export class AnalyticsConfig extends section([
  'META_CAPI_URL',
  'META_GRAPH_API_VERSION',
  'META_PIXEL_ID',
  'META_CAPI_ACCESS_TOKEN',
  'META_TEST_EVENT_CODE',
  'PURCHASE_EVENT_ON',
  'GA4_MP_URL',
  'GA4_MEASUREMENT_ID',
  'GA4_API_SECRET',
  'ANALYTICS_TIMEOUT_MS',
]) {}

/** The members area: the webhook that tells it who may enter, and the links to it. */
export class MembershipConfig extends section([
  'MEMBERSHIP_WEBHOOK_URL',
  'MEMBERSHIP_WEBHOOK_SECRET',
  'MEMBERSHIP_WEBHOOK_TEST_ORDERS',
  'PROGRAM_APP_URL',
  'MEMBERS_REGISTER_URL',
  'APP_DOWNLOAD_URL',
]) {}

/** Metrics for scrapers, and how long data is kept. */
export class OpsConfig extends section([
  'METRICS_TOKEN',
  'WORKER_METRICS_PORT',
  'WORKER_METRICS_HOST',
  'METRICS_SOURCE_TIMEOUT_MS',
  'RETENTION_DAYS',
  'AUDIT_IP_RETENTION_DAYS',
  'RETENTION_BATCH_SIZE',
]) {}

/** Every section; each setting is in exactly one (config-sections.spec.ts). */
export const CONFIG_SECTIONS: ReadonlyArray<{ readonly keys: readonly Setting[]; of(config: AppConfig): object; new (): object }> = [
  ServerConfig,
  DatabaseConfig,
  LoadSheddingConfig,
  RedisConfig,
  RateLimitConfig,
  QueueConfig,
  StripeConfig,
  PaymentsConfig,
  MailConfig,
  AccessConfig,
  AffiliateConfig,
  AnalyticsConfig,
  MembershipConfig,
  OpsConfig,
];
