import type Stripe from 'stripe';
import type request from 'supertest';
import { STRIPE_API_VERSION } from '@core/payments/providers/stripe/stripe-client';
import { FakeStripeServer } from '../../fakes/stripe-server';
import { sendSignedWebhook, stripeFakeEnv } from './payments';
import { outboxDrained, resetData, Stack, startStack } from './stack';

/** A fake third party a spec starts in `env` (SMTP, affiliate, analytics): reset per test, stopped at the end. */
interface SpecFake {
  reset(): void;
  stop(): Promise<void>;
}

export interface StripeSpecOptions {
  /** The signing secret the stack checks Stripe's webhooks with. */
  webhookSecret: string;
  /** Settings beyond the Stripe fake's, made when the stack starts: start the spec's other fakes here for their URLs. */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** The other fakes `env` started. */
  fakes?: SpecFake[];
  /** Tables emptied before each test, besides the lead tables and the outbox. */
  truncate?: string;
  /** False: the API alone, no worker. */
  worker?: boolean;
  /** Before each test, wait for the previous test's jobs to finish: they may still be running when it ends. */
  drainFirst?: boolean;
}

/** A webhook event as Stripe sends it: stripe-node's event envelope, of any type, about any object. */
type StripeEvent = Omit<Stripe.Event, 'type' | 'data'> & { type: string; data: { object: object } };

export interface StripeSpec {
  readonly stripe: FakeStripeServer;
  /** The API and worker, once the spec's beforeAll has started them. */
  readonly stack: Stack;
  /** An event of `type` about `object`: a fresh id, now, the pinned API version, unless given. */
  event(type: string, object: object, options?: { id?: string; created?: number; apiVersion?: string }): StripeEvent;
  /** Sends the event to the stack's webhook route, signed as Stripe signs it; the answer must be 200. */
  webhook(event: object): Promise<request.Response>;
}

/**
 * The set-up every Stripe spec shares, as jest hooks of the calling file: the Stripe fake and a
 * stack paying through it (stripeFakeEnv) for the whole file; before each test, empty tables and
 * fakes that have forgotten the previous test's calls.
 */
export function stripeSpecStack(options: StripeSpecOptions): StripeSpec {
  const stripe = new FakeStripeServer();
  const fakes: SpecFake[] = [stripe, ...(options.fakes ?? [])];
  let started: Stack | undefined;
  let events = 0;

  beforeAll(async () => {
    await stripe.start();
    const more = typeof options.env === 'function' ? await options.env() : options.env;
    const env = { ...more, ...stripeFakeEnv(stripe.port, options.webhookSecret) };
    started = await startStack(env, { worker: options.worker });
  });
  afterAll(async () => {
    await started?.stop();
    await Promise.all(fakes.map((fake) => fake.stop()));
  });
  beforeEach(async () => {
    const { db } = spec.stack;
    if (options.drainFirst) await outboxDrained(db);
    await resetData(db);
    await db.query(`TRUNCATE ${options.truncate ?? 'orders, payment_events, sandbox_objects'} CASCADE`);
    for (const fake of fakes) fake.reset();
  });

  const spec: StripeSpec = {
    stripe,
    get stack() {
      if (!started) throw new Error('The stack starts in beforeAll: use it in hooks and tests only');
      return started;
    },
    event: (type, object, { id = `evt_spec_${++events}`, created = Math.floor(Date.now() / 1000), apiVersion = STRIPE_API_VERSION } = {}) =>
      ({
        id,
        object: 'event',
        api_version: apiVersion,
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      }) satisfies StripeEvent,
    webhook: (event) => sendSignedWebhook(spec.stack.url, options.webhookSecret, event),
  };
  return spec;
}
