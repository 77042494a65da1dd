import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { CURRENCY } from '@contracts/plans';
import type { DoorAttempt } from './exactly-once';

/** The fake account's objects are in the site's currency, as a Stripe account set up for the site charges. */
export const ACCOUNT_CURRENCY = CURRENCY.toLowerCase();

/** One request as the Stripe SDK sent it: form parameters flattened as Stripe encodes them (`metadata[order_id]`). */
export interface StripeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  authorization: string | undefined;
  /** What the fake answered: 0 until it has. */
  status: number;
  /** The answer repeated a request already made with the same Idempotency-Key. */
  replayed: boolean;
}

export type Handler = (req: StripeRequest, id: string | undefined) => Record<string, unknown>;

/** An answer other than 200, thrown by a route: Stripe's error shape under its status code. */
export class StripeErrorAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: Record<string, string> },
  ) {
    super(body.error.message);
  }
}

/**
 * A loopback stand-in for the parts of Stripe's REST API the payment gateway uses. It records every request
 * (method, path, form or query parameters, Idempotency-Key, Stripe-Version) and answers with
 * Stripe-shaped objects of the pinned API version, typed by stripe-node's own types (`satisfies`:
 * a field that version no longer has does not compile). Like Stripe, a repeated Idempotency-Key gets the first answer again.
 * `failNext(n, path?)` answers the next n requests with a retryable 500.
 */
export class FakeStripeServer {
  readonly requests: StripeRequest[] = [];
  /** State the next answers use: what a retrieved setup intent or payment intent reports. */
  setupIntentStatus = 'succeeded';
  paymentIntentStatus = 'succeeded';
  subscriptionStatus = 'active';
  /**
   * What confirming a subscription's first payment does (created with payment_behavior
   * default_incomplete): it succeeds, asks the buyer to authenticate (3-D Secure), or is declined.
   */
  firstPaymentOutcome: 'succeeded' | 'requires_action' | 'declined' = 'succeeded';
  refundStatus = 'succeeded';
  /** What a PaymentIntent created and confirmed at once on a saved card (one-click) does. */
  savedCardOutcome: 'succeeded' | 'requires_action' | 'declined' = 'succeeded';
  private oneClickCharges = 0;
  /**
   * Each setup or payment intent created gets an id of its own, as Stripe's do: for a stack many
   * checkouts share (the browser tests). Off, every one is …fake000000000000000001, which the
   * integration specs name.
   */
  distinctIntents = false;
  private intentsCreated = 0;
  existingCustomerId: string | null = null;
  /** A Price already carrying the plan's lookup key (as a live account has), with its terms; it answers any lookup key. */
  existingPrice: { id: string; unit_amount: number; currency: string; interval: string } | null = null;
  /** Prices made through POST /v1/prices or addPrice, by id; GET /v1/prices finds them by lookup key. */
  readonly prices = new Map<string, Record<string, unknown>>();
  /** Webhook endpoints made through POST /v1/webhook_endpoints or addWebhookEndpoint, by id. */
  readonly webhookEndpoints = new Map<string, Stripe.WebhookEndpoint>();
  /** Customer Portal configurations made through POST /v1/billing_portal/configurations, by id. */
  readonly portalConfigurations = new Map<string, Record<string, unknown>>();
  /** Subscriptions whose status differs from `subscriptionStatus` (see setSubscriptionStatus). */
  private readonly subscriptionStatuses = new Map<string, string>();
  /** Invoices GET /v1/invoices/{id} answers (see addInvoice); any other id is Stripe's 404. */
  private readonly invoices = new Map<string, Record<string, unknown>>();
  /** Refunds made through POST /v1/refunds or addRefund (a refund made in the dashboard), by id. */
  private readonly refunds = new Map<string, Record<string, unknown>>();
  /** Disputes GET /v1/disputes/{id} answers (see addDispute). */
  private readonly disputes = new Map<string, Record<string, unknown>>();
  /** Invoice payments (the link from an invoice to the payment intent that paid it), by id. */
  private readonly invoicePayments = new Map<string, Stripe.InvoicePayment>();
  /** Payment intents whose status differs from `paymentIntentStatus` (a subscription's first invoice's). */
  private readonly intentStatuses = new Map<string, string>();
  /** Subscription schedules made through POST /v1/subscription_schedules or addSchedule, by id. */
  private readonly schedules = new Map<
    string,
    { id: string; status: string; subscription: string | null; customer: string } & Record<string, unknown>
  >();
  /** Subscriptions canceled through DELETE /v1/subscriptions/{id}. */
  private readonly canceled = new Set<string>();
  private readonly metadata = new Map<string, Record<string, string>>();
  private readonly amounts = new Map<string, number>();
  private readonly answered = new Map<string, Record<string, unknown>>();
  /** Subscriptions' cancel-at-period-end flag and default card, as POST /v1/subscriptions/{id} set them. */
  private readonly subscriptionChanges = new Map<
    string,
    {
      cancel_at_period_end?: boolean;
      default_payment_method?: string;
      pause_collection?: { behavior: string; resumes_at: number | null };
      discounts?: Array<{ coupon: string }>;
    }
  >();
  /** The end of every subscription's current period (unix seconds), as GET and POST /v1/subscriptions/{id} report it. */
  currentPeriodEnd = Math.floor(Date.UTC(2030, 0, 15) / 1000);
  /** Customers deleted through DELETE /v1/customers/{id}: like Stripe, a second delete finds none. */
  private readonly deleted = new Set<string>();
  /** Coupons and promotion codes made through POST /v1/coupons and /v1/promotion_codes, by id. */
  readonly coupons = new Map<string, Record<string, unknown>>();
  readonly promotionCodes = new Map<string, Record<string, unknown>>();
  private failing = 0;
  private failingPath: string | null = null;
  private server: Server | null = null;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  reset(): void {
    this.requests.length = 0;
    this.metadata.clear();
    this.invoices.clear();
    this.subscriptionStatuses.clear();
    this.searchableSubscriptions.clear();
    this.refunds.clear();
    this.disputes.clear();
    this.invoicePayments.clear();
    this.intentStatuses.clear();
    this.canceled.clear();
    this.schedules.clear();
    this.amounts.clear();
    this.answered.clear();
    this.deleted.clear();
    this.subscriptionChanges.clear();
    this.coupons.clear();
    this.promotionCodes.clear();
    this.currentPeriodEnd = Math.floor(Date.UTC(2030, 0, 15) / 1000);
    this.failing = 0;
    this.failingPath = null;
    this.setupIntentStatus = 'succeeded';
    this.paymentIntentStatus = 'succeeded';
    this.subscriptionStatus = 'active';
    this.firstPaymentOutcome = 'succeeded';
    this.refundStatus = 'succeeded';
    this.savedCardOutcome = 'succeeded';
    this.existingCustomerId = null;
    this.existingPrice = null;
    this.prices.clear();
    this.webhookEndpoints.clear();
    this.portalConfigurations.clear();
  }

  /** A webhook endpoint the account has already (made in the dashboard, or by an earlier setup). */
  addWebhookEndpoint(endpoint: { url: string; enabledEvents: string[]; apiVersion: string | null }): Stripe.WebhookEndpoint {
    const object = {
      id: `we_fake${String(this.webhookEndpoints.size + 1).padStart(18, '0')}`,
      object: 'webhook_endpoint',
      api_version: endpoint.apiVersion,
      application: null,
      created: 1_700_000_000,
      description: null,
      enabled_events: endpoint.enabledEvents,
      livemode: false,
      metadata: {},
      status: 'enabled',
      url: endpoint.url,
    } satisfies Stripe.WebhookEndpoint;
    this.webhookEndpoints.set(object.id, object);
    return object;
  }

  /** A Price the account has already under a lookup key (a monthly one), e.g. at an older amount. */
  addPrice(price: { lookupKey: string; unitAmount: number; currency?: string }): Record<string, unknown> {
    const object = this.storePrice({
      lookup_key: price.lookupKey,
      unit_amount: String(price.unitAmount),
      currency: price.currency ?? ACCOUNT_CURRENCY,
      'recurring[interval]': 'month',
    });
    return object;
  }

  /** Every write (POST or DELETE) the fake was sent, replays included: a run that changes nothing sends none. */
  writes(): StripeRequest[] {
    return this.requests.filter((r) => r.method === 'POST' || r.method === 'DELETE');
  }

  /**
   * What Stripe holds of a schedule made earlier (its create's answer lost): `subscription` once
   * its first charge fell due and Stripe started it.
   */
  addSchedule(schedule: { customer: string; orderId: string; subscription?: string }): string {
    const id = `sub_sched_earlier${String(this.schedules.size + 1).padStart(10, '0')}`;
    const subscription = schedule.subscription ?? null;
    this.schedules.set(id, {
      id,
      object: 'subscription_schedule',
      status: subscription ? 'active' : 'not_started',
      subscription,
      customer: schedule.customer,
      end_behavior: 'cancel',
      metadata: { order_id: schedule.orderId },
    });
    return id;
  }

  /** A schedule as Stripe holds it now (its status after a cancel); undefined when none has this id. */
  schedule(id: string): Record<string, unknown> | undefined {
    return this.schedules.get(id);
  }

  /** Stripe keeps an Idempotency-Key for 24 hours: after that, the same key makes a new object. */
  forgetIdempotencyKeys(): void {
    this.answered.clear();
  }

  /** What GET /v1/subscriptions/{id} reports for this subscription from now on. */
  setSubscriptionStatus(id: string, status: string): void {
    this.subscriptionStatuses.set(id, status);
  }

  /**
   * An invoice of a subscription as Stripe answers it (its subscription under
   * `parent.subscription_details`, the payment intent that paid it among its invoice payments):
   * `subscription_create` is its first, `subscription_cycle` a renewal. Returns the object, to be
   * sent in a webhook event too.
   */
  addInvoice(invoice: {
    id: string;
    subscription: string;
    billingReason: 'subscription_create' | 'subscription_cycle';
    amountPaid: number;
    paidAt: number;
    status?: 'paid' | 'open' | 'uncollectible';
    metadata?: Record<string, string>;
    /** The payment intent that paid it: refunds of the invoice go to it. */
    paymentIntent?: string;
  }): Record<string, unknown> {
    const status = invoice.status ?? 'paid';
    if (invoice.paymentIntent) {
      this.amounts.set(invoice.paymentIntent, invoice.amountPaid);
      const payment = invoicePaymentOf(invoice.id, invoice.paymentIntent, invoice.amountPaid, status === 'paid' ? invoice.paidAt : null);
      this.invoicePayments.set(payment.id, payment);
    }
    const object = {
      id: invoice.id,
      object: 'invoice',
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: invoice.subscription, metadata: invoice.metadata ?? {} },
      },
      billing_reason: invoice.billingReason,
      status,
      amount_due: invoice.amountPaid,
      amount_paid: status === 'paid' ? invoice.amountPaid : 0,
      amount_remaining: status === 'paid' ? 0 : invoice.amountPaid,
      currency: ACCOUNT_CURRENCY,
      status_transitions: {
        paid_at: status === 'paid' ? invoice.paidAt : null,
        finalized_at: null,
        marked_uncollectible_at: null,
        voided_at: null,
      },
      livemode: false,
    } satisfies Partial<Stripe.Invoice>;
    this.invoices.set(invoice.id, object);
    return object;
  }

  /** A payment intent's amount, for refunds of a charge the fake did not create (one made before the test). */
  setIntentAmount(paymentIntent: string, amount: number): void {
    this.amounts.set(paymentIntent, amount);
  }

  /** A refund made in Stripe's dashboard (no metadata of ours); returns the object, to be sent in a webhook event too. */
  addRefund(refund: { id: string; paymentIntent: string; amount: number; status?: string }): Record<string, unknown> {
    const object = {
      id: refund.id,
      object: 'refund',
      amount: refund.amount,
      currency: ACCOUNT_CURRENCY,
      payment_intent: refund.paymentIntent,
      charge: `ch_${refund.paymentIntent.slice('pi_'.length)}`,
      status: refund.status ?? 'succeeded',
      metadata: {},
    };
    this.refunds.set(refund.id, object);
    return object;
  }

  /** A dispute of a payment intent's charge, as GET /v1/disputes/{id} answers it; call again to move its status. */
  addDispute(dispute: {
    id: string;
    paymentIntent: string;
    amount: number;
    status: Stripe.Dispute.Status;
    /** How a card dispute was opened; a `prevented` one was blocked or resolved (refunded) by dispute prevention. */
    caseType?: Stripe.Dispute.PaymentMethodDetails.Card.CaseType;
  }): Record<string, unknown> {
    const object = {
      id: dispute.id,
      object: 'dispute',
      amount: dispute.amount,
      currency: ACCOUNT_CURRENCY,
      charge: `ch_${dispute.paymentIntent.slice('pi_'.length)}`,
      payment_intent: dispute.paymentIntent,
      status: dispute.status,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', case_type: dispute.caseType ?? 'chargeback', network: 'visa', network_reason_code: null },
      },
      metadata: {},
    } satisfies Partial<Stripe.Dispute>;
    this.disputes.set(dispute.id, object);
    return object;
  }

  /** The charge object of a `charge.refunded` event for a payment intent. */
  chargeOf(paymentIntent: string): Record<string, unknown> {
    const refunded = this.refundsOf({ payment_intent: paymentIntent }).reduce((sum, r) => sum + Number(r.amount), 0);
    return {
      id: `ch_${paymentIntent.slice('pi_'.length)}`,
      object: 'charge',
      payment_intent: paymentIntent,
      amount: this.amounts.get(paymentIntent) ?? refunded,
      amount_refunded: refunded,
      refunded: refunded >= (this.amounts.get(paymentIntent) ?? refunded),
      currency: ACCOUNT_CURRENCY,
      metadata: {},
    };
  }

  /** Refunds the fake made through POST /v1/refunds (every answer, replays excluded). */
  refundsCreated(): StripeRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.status === 200 && !r.replayed);
  }

  /** The next `count` requests (to `path` only, when given) get a retryable 500. */
  failNext(count: number, path: string | null = null): void {
    this.failing = count;
    this.failingPath = path;
  }

  /**
   * Every write (POST) as an attempt on its Idempotency-Key (or on its method and path when it
   * carried none), for `exactlyOnceProblems`: a repeat is a write sent again after it succeeded.
   */
  writesAtDoor(path?: RegExp): DoorAttempt[] {
    return this.requests
      .filter((r) => r.method === 'POST' && (!path || path.test(r.path)))
      .map((r) => ({ identity: r.idempotencyKey ?? `${r.method} ${r.path}`, toldDone: r.status === 200 }));
  }

  /** Customer ids of every delete the fake answered with a deletion (not the 404 of a repeat). */
  customersDeleted(): string[] {
    return this.requests
      .filter((r) => r.method === 'DELETE' && r.status === 200 && r.path.startsWith('/v1/customers/'))
      .map((r) => r.path.slice('/v1/customers/'.length));
  }

  /** The recorded calls as `METHOD /path`, for asserting the exact sequence. */
  calls(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  // --- Search by metadata (the payment repair's `metadata['order_id']` look-ups) -------------------
  /** Subscriptions `GET /v1/subscriptions/search` finds, by id: what Stripe holds made for an order. */
  private readonly searchableSubscriptions = new Map<string, Pick<Stripe.Subscription, 'id' | 'object' | 'status' | 'metadata'>>();

  /** A subscription Stripe made for the order (its metadata names it), found by its search only. */
  addSubscriptionFor(orderId: string, status: Stripe.Subscription.Status = 'active'): string {
    const id = `sub_search${String(this.searchableSubscriptions.size + 1).padStart(15, '0')}`;
    this.searchableSubscriptions.set(id, { id, object: 'subscription', status, metadata: { order_id: orderId } });
    return id;
  }

  /** Stripe's search: one `metadata['key']:'value'` clause, over what the fake holds, in one page. */
  private searchResult<T extends { metadata: Stripe.Metadata | null }>(query: string | undefined, objects: T[]): Stripe.ApiSearchResult<T> {
    const clause = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(query ?? '');
    if (!clause) throw new StripeErrorAnswer(400, { error: { type: 'invalid_request_error', message: `Invalid search query: ${query}` } });
    const data = objects.filter((o) => o.metadata?.[clause[1]] === clause[2]);
    return { object: 'search_result', data, has_more: false, next_page: null, url: '/v1/search' };
  }

  private readonly searchRoutes: Array<[string, RegExp, Handler]> = [
    [
      'GET',
      /^\/v1\/payment_intents\/search$/,
      (r) => ({
        ...this.searchResult(
          r.params.query,
          [...this.metadata]
            .filter(([id]) => id.startsWith('pi_'))
            .map(
              ([id, metadata]) =>
                ({
                  id,
                  object: 'payment_intent',
                  status: this.intentStatuses.get(id) ?? this.paymentIntentStatus,
                  metadata,
                }) satisfies Pick<Stripe.PaymentIntent, 'id' | 'object' | 'status' | 'metadata'>,
            ),
        ),
      }),
    ],
    ['GET', /^\/v1\/subscriptions\/search$/, (r) => ({ ...this.searchResult(r.params.query, [...this.searchableSubscriptions.values()]) })],
  ];
  // ------------------------------------------------------------------------------------------------

  protected readonly routes: Array<[string, RegExp, Handler]> = [
    ...this.searchRoutes,
    ['GET', /^\/v1\/coupons\/([^/]+)$/, (_r, id) => this.found('coupon', this.coupons.get(id as string), id as string)],
    ['POST', /^\/v1\/coupons$/, (r) => this.createCoupon(r)],
    [
      'GET',
      /^\/v1\/promotion_codes$/,
      (r) =>
        list(
          [...this.promotionCodes.values()].filter(
            (p) =>
              (!r.params.code || p.code === r.params.code) &&
              (!r.params.coupon || (p.promotion as Stripe.PromotionCode.Promotion).coupon === r.params.coupon),
          ),
        ),
    ],
    [
      'POST',
      /^\/v1\/promotion_codes$/,
      (r) => {
        const promo = {
          id: `promo_fake${String(this.promotionCodes.size + 1).padStart(14, '0')}`,
          object: 'promotion_code',
          code: r.params.code,
          active: true,
          promotion: { type: 'coupon', coupon: r.params['promotion[coupon]'] ?? null },
        } satisfies Partial<Stripe.PromotionCode>;
        this.promotionCodes.set(promo.id, promo);
        return promo;
      },
    ],
    ['GET', /^\/v1\/customers$/, () => list(this.existingCustomerId ? [{ id: this.existingCustomerId, object: 'customer' }] : [])],
    ['POST', /^\/v1\/customers$/, () => ({ id: 'cus_fake000000000000000001', object: 'customer' })],
    ['POST', /^\/v1\/customers\/([^/]+)$/, (_r, id) => ({ id, object: 'customer' })],
    ['DELETE', /^\/v1\/customers\/([^/]+)$/, (_r, id) => this.deleteCustomer(id as string)],
    ['POST', /^\/v1\/setup_intents$/, (r) => this.intent(this.newIntentId('seti'), 'setup_intent', r)],
    [
      'GET',
      /^\/v1\/setup_intents\/([^/]+)$/,
      (_r, id) => ({
        id,
        object: 'setup_intent',
        status: this.setupIntentStatus,
        customer: 'cus_fake000000000000000001',
        payment_method: 'pm_fake000000000000000001',
        metadata: this.metadata.get(id as string) ?? {},
      }),
    ],
    ['GET', /^\/v1\/prices$/, (r) => list(this.pricesFound(r.params))],
    ['POST', /^\/v1\/prices$/, (r) => this.createPrice(r)],
    ['GET', /^\/v1\/webhook_endpoints$/, () => list([...this.webhookEndpoints.values()])],
    ['POST', /^\/v1\/webhook_endpoints$/, (r) => this.createWebhookEndpoint(r)],
    ['POST', /^\/v1\/webhook_endpoints\/([^/]+)$/, (r, id) => this.updateWebhookEndpoint(r, id as string)],
    [
      'GET',
      /^\/v1\/billing_portal\/configurations$/,
      (r) =>
        list([...this.portalConfigurations.values()].filter((c) => r.params.active === undefined || String(c.active) === r.params.active)),
    ],
    ['POST', /^\/v1\/billing_portal\/configurations$/, (r) => this.savePortalConfiguration(r, undefined)],
    ['POST', /^\/v1\/billing_portal\/configurations\/([^/]+)$/, (r, id) => this.savePortalConfiguration(r, id)],
    [
      'POST',
      /^\/v1\/subscriptions$/,
      (r) => {
        // Like Stripe: default_incomplete leaves the first invoice's payment unconfirmed.
        const incomplete = r.params.payment_behavior === 'default_incomplete';
        this.intentStatuses.set(FIRST_INVOICE_INTENT, incomplete ? 'requires_confirmation' : 'succeeded');
        const payment = invoicePaymentOf('in_fake1', FIRST_INVOICE_INTENT, 0, null);
        return {
          ...this.subscription('sub_fake000000000000000001'),
          status: incomplete ? 'incomplete' : this.subscriptionStatus,
          // Expanded with its payments (expand latest_invoice.payments), as the gateway asks.
          latest_invoice: {
            id: 'in_fake1',
            object: 'invoice',
            billing_reason: 'subscription_create',
            status: incomplete ? 'open' : 'paid',
            payments: { object: 'list', data: [payment], has_more: false, url: '/v1/invoice_payments' },
          } satisfies Partial<Stripe.Invoice>,
        };
      },
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      (_r, id) => {
        if (this.firstPaymentOutcome === 'declined') {
          return errorAnswer(402, {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
          });
        }
        this.intentStatuses.set(id as string, this.firstPaymentOutcome);
        return { id, object: 'payment_intent', status: this.firstPaymentOutcome, client_secret: `${id}_secret_fake` };
      },
    ],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, (_r, id) => this.invoice(id as string)],
    [
      'GET',
      /^\/v1\/invoices$/,
      (r) => ({
        object: 'list',
        has_more: false,
        data: [...this.invoices.values()].filter(
          (i) =>
            (!r.params.subscription || (i.parent as Stripe.Invoice.Parent).subscription_details?.subscription === r.params.subscription) &&
            (!r.params.status || i.status === r.params.status),
        ),
      }),
    ],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (_r, id) => this.subscription(id as string)],
    [
      'POST',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (r, id) => {
        const change = { ...this.subscriptionChanges.get(id as string) };
        if (r.params.cancel_at_period_end !== undefined) change.cancel_at_period_end = r.params.cancel_at_period_end === 'true';
        if (r.params.default_payment_method !== undefined) change.default_payment_method = r.params.default_payment_method;
        if (r.params['pause_collection[behavior]'] !== undefined) {
          const resumesAt = r.params['pause_collection[resumes_at]'];
          change.pause_collection = { behavior: r.params['pause_collection[behavior]'], resumes_at: resumesAt ? Number(resumesAt) : null };
        }
        if (r.params['discounts[0][coupon]'] !== undefined) change.discounts = [{ coupon: r.params['discounts[0][coupon]'] }];
        this.subscriptionChanges.set(id as string, change);
        return this.subscription(id as string);
      },
    ],
    [
      'POST',
      /^\/v1\/subscription_schedules$/,
      (r) => {
        const schedule = {
          id: `sub_sched_fake${String(this.schedules.size + 1).padStart(13, '0')}`,
          object: 'subscription_schedule',
          // A schedule that starts later has no subscription until then.
          status: 'not_started',
          subscription: null as string | null,
          customer: r.params.customer,
          end_behavior: r.params.end_behavior,
          metadata: metadataOf(r.params),
        };
        this.schedules.set(schedule.id, schedule);
        return schedule;
      },
    ],
    [
      'GET',
      /^\/v1\/subscription_schedules$/,
      (r) => list([...this.schedules.values()].filter((s) => !r.params.customer || s.customer === r.params.customer)),
    ],
    [
      'GET',
      /^\/v1\/subscription_schedules\/([^/]+)$/,
      (_r, id) => this.found('subscription_schedule', this.schedules.get(id as string), id as string),
    ],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/cancel$/, (_r, id) => this.cancelSchedule(id as string)],
    ['GET', /^\/v1\/invoice_payments$/, (r) => list(this.invoicePaymentsOf(r.params))],
    ['POST', /^\/v1\/payment_intents$/, (r) => this.createPaymentIntent(r)],
    [
      'GET',
      /^\/v1\/payment_methods\/([^/]+)$/,
      (_r, id) => ({
        id,
        object: 'payment_method',
        type: 'card',
        customer: 'cus_fake000000000000000001',
        card: { brand: 'visa', last4: '4242' },
      }),
    ],
    [
      'GET',
      /^\/v1\/payment_intents\/([^/]+)$/,
      (_r, id) =>
        ({
          id: id as string,
          object: 'payment_intent',
          status: this.intentStatuses.get(id as string) ?? this.paymentIntentStatus,
          last_payment_error: null,
          customer: 'cus_fake000000000000000001',
          payment_method: 'pm_fake000000000000000001',
          metadata: this.metadata.get(id as string) ?? {},
        }) satisfies Partial<Stripe.PaymentIntent>,
    ],
    ['POST', /^\/v1\/refunds$/, (r) => this.createRefund(r)],
    ['GET', /^\/v1\/refunds$/, (r) => list(this.refundsOf(r.params))],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, (_r, id) => this.found('refund', this.refunds.get(id as string), id as string)],
    ['GET', /^\/v1\/disputes\/([^/]+)$/, (_r, id) => this.found('dispute', this.disputes.get(id as string), id as string)],
    ['GET', /^\/v1\/charges\/([^/]+)$/, (_r, id) => ({ id, object: 'charge', payment_intent: `pi_${(id as string).slice('ch_'.length)}` })],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (_r, id) => this.cancel(id as string)],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      (r) => ({
        id: 'bps_fake000000000000000001',
        object: 'billing_portal.session',
        customer: r.params.customer,
        return_url: r.params.return_url,
        url: 'https://billing.stripe.com/p/session/test_fake',
      }),
    ],
  ];

  /**
   * Like Stripe: without an amount what is left of the charge is refunded; more than is left is
   * `amount_too_large`, and nothing left is `charge_already_refunded`.
   */
  private createCoupon(r: StripeRequest): Record<string, unknown> {
    const id = r.params.id;
    if (this.coupons.has(id)) {
      return errorAnswer(400, { type: 'invalid_request_error', code: 'resource_already_exists', message: 'Coupon already exists.' });
    }
    const coupon = {
      id,
      object: 'coupon',
      name: r.params.name,
      percent_off: r.params.percent_off ? Number(r.params.percent_off) : null,
      amount_off: r.params.amount_off ? Number(r.params.amount_off) : null,
      currency: r.params.currency ?? null,
      duration: r.params.duration,
      duration_in_months: r.params.duration_in_months ? Number(r.params.duration_in_months) : null,
    };
    this.coupons.set(id, coupon);
    return coupon;
  }

  private createRefund(r: StripeRequest): Record<string, unknown> {
    const paymentIntent = r.params.payment_intent;
    const charged = this.amounts.get(paymentIntent);
    const refunded = this.refundsOf({ payment_intent: paymentIntent }).reduce((sum, x) => sum + Number(x.amount), 0);
    const left = charged === undefined ? Number.MAX_SAFE_INTEGER : charged - refunded;
    if (left <= 0) {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: 'Charge has already been refunded.',
      });
    }
    const amount = Number(r.params.amount ?? (charged === undefined ? 0 : left));
    if (amount > left) {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      });
    }
    const id = `re_fake${String(this.refunds.size + 1).padStart(18, '0')}`;
    const metadata = Object.fromEntries(
      Object.entries(r.params).flatMap(([key, value]) => {
        const match = key.match(/^metadata\[(.+)\]$/);
        return match ? [[match[1], value]] : [];
      }),
    );
    const refund = {
      id,
      object: 'refund',
      amount,
      currency: ACCOUNT_CURRENCY,
      payment_intent: paymentIntent,
      charge: `ch_${paymentIntent.slice('pi_'.length)}`,
      status: this.refundStatus,
      metadata,
    };
    this.refunds.set(id, refund);
    return refund;
  }

  /**
   * Prices under any of the `lookup_keys[i]` asked for (active ones, when asked), `existingPrice`
   * first. Like Stripe, a lookup key names one Price at a time: a transfer takes it off the other.
   */
  private pricesFound(params: Record<string, string>): Array<Record<string, unknown>> {
    const keys = Object.entries(params)
      .filter(([name]) => /^lookup_keys\[\d+\]$/.test(name))
      .map(([, value]) => value);
    const existing = this.existingPrice && {
      id: this.existingPrice.id,
      object: 'price',
      active: true,
      unit_amount: this.existingPrice.unit_amount,
      currency: this.existingPrice.currency,
      recurring: { interval: this.existingPrice.interval, interval_count: 1 },
    };
    const stored = [...this.prices.values()].filter(
      (p) =>
        (keys.length === 0 || keys.includes(p.lookup_key as string)) && (params.active === undefined || String(p.active) === params.active),
    );
    return existing ? [existing, ...stored] : stored;
  }

  private createPrice(r: StripeRequest): Record<string, unknown> {
    if (r.params.transfer_lookup_key === 'true') {
      this.existingPrice = null;
      for (const price of this.prices.values()) if (price.lookup_key === r.params.lookup_key) price.lookup_key = null;
    }
    return this.storePrice(r.params);
  }

  private storePrice(params: Record<string, string>): Record<string, unknown> {
    const n = String(this.prices.size + 1);
    const price = {
      id: `price_fake${n.padStart(17, '0')}`,
      object: 'price',
      active: true,
      unit_amount: Number(params.unit_amount),
      currency: params.currency,
      // A Price made without recurring terms charges once (an add-on on a first invoice).
      recurring: params['recurring[interval]']
        ? { interval: params['recurring[interval]'], interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' as const }
        : null,
      lookup_key: params.lookup_key ?? null,
      product: params.product ?? `prod_fake${n.padStart(16, '0')}`,
      type: params['recurring[interval]'] ? ('recurring' as const) : ('one_time' as const),
    } satisfies Partial<Stripe.Price>;
    this.prices.set(price.id, price);
    return price;
  }

  /** Like Stripe: the signing secret is in the answer to the create only. */
  private createWebhookEndpoint(r: StripeRequest): Record<string, unknown> {
    const endpoint = this.addWebhookEndpoint({
      url: r.params.url,
      enabledEvents: indexed(r.params, 'enabled_events'),
      apiVersion: r.params.api_version ?? null,
    });
    endpoint.description = r.params.description ?? null;
    endpoint.metadata = metadataOf(r.params);
    return { ...endpoint, secret: `whsec_fake${endpoint.id.slice('we_fake'.length)}` };
  }

  /** Like Stripe: the URL, events, description, metadata and status can change; the API version cannot (no such parameter). */
  private updateWebhookEndpoint(r: StripeRequest, id: string): Record<string, unknown> {
    const endpoint = this.webhookEndpoints.get(id);
    if (!endpoint) return this.found('webhook_endpoint', undefined, id);
    if (r.params.api_version !== undefined) {
      return errorAnswer(400, { type: 'invalid_request_error', param: 'api_version', message: 'Received unknown parameter: api_version' });
    }
    const events = indexed(r.params, 'enabled_events');
    if (events.length > 0) endpoint.enabled_events = events;
    if (r.params.url !== undefined) endpoint.url = r.params.url;
    if (r.params.disabled !== undefined) endpoint.status = r.params.disabled === 'true' ? 'disabled' : 'enabled';
    return { ...endpoint };
  }

  /** Creates (no id) or updates a portal configuration from its form parameters (`features[…][…]`, `metadata[…]`). */
  private savePortalConfiguration(r: StripeRequest, id: string | undefined): Record<string, unknown> {
    const earlier = id === undefined ? undefined : this.portalConfigurations.get(id);
    if (id !== undefined && !earlier) return this.found('billing_portal.configuration', earlier, id);
    const features = nested(r.params, 'features');
    const configuration = {
      id: id ?? `bpc_fake${String(this.portalConfigurations.size + 1).padStart(17, '0')}`,
      object: 'billing_portal.configuration',
      active: r.params.active === undefined ? ((earlier?.active as boolean | undefined) ?? true) : r.params.active === 'true',
      is_default: false,
      livemode: false,
      features: mergeDeep(
        (earlier?.features as Record<string, unknown> | undefined) ?? {},
        features,
      ) as unknown as Stripe.BillingPortal.Configuration.Features,
      metadata: { ...((earlier?.metadata as Record<string, string> | undefined) ?? {}), ...metadataOf(r.params) },
      name: r.params.name ?? (earlier?.name as string | null | undefined) ?? null,
    } satisfies Partial<Stripe.BillingPortal.Configuration>;
    this.portalConfigurations.set(configuration.id, configuration);
    return configuration;
  }

  /** Invoice payments by invoice, status or payment intent, as GET /v1/invoice_payments filters them. */
  private invoicePaymentsOf(params: Record<string, string>): Stripe.InvoicePayment[] {
    return [...this.invoicePayments.values()].filter(
      (payment) =>
        (params.invoice === undefined || payment.invoice === params.invoice) &&
        (params.status === undefined || payment.status === params.status) &&
        (params['payment[payment_intent]'] === undefined || payment.payment.payment_intent === params['payment[payment_intent]']),
    );
  }

  private refundsOf(params: Record<string, string>): Array<Record<string, unknown>> {
    return [...this.refunds.values()].filter(
      (refund) =>
        (params.payment_intent === undefined || refund.payment_intent === params.payment_intent) &&
        (params.charge === undefined || refund.charge === params.charge),
    );
  }

  private cancel(id: string): Record<string, unknown> {
    if (this.canceled.has(id)) {
      throw new StripeErrorAnswer(400, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${id}'` },
      });
    }
    this.canceled.add(id);
    return { id, object: 'subscription', status: 'canceled' };
  }

  /** Subscriptions canceled through DELETE /v1/subscriptions/{id} (answered with a cancellation). */
  subscriptionsCanceled(): string[] {
    return this.requests
      .filter((r) => r.method === 'DELETE' && r.status === 200 && !r.replayed && r.path.startsWith('/v1/subscriptions/'))
      .map((r) => r.path.slice('/v1/subscriptions/'.length));
  }

  private found(kind: string, object: Record<string, unknown> | undefined, id: string): Record<string, unknown> {
    if (!object) {
      throw new StripeErrorAnswer(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` },
      });
    }
    return object;
  }

  /** A subscription as Stripe answers it: its billing period is on its item. */
  subscription(id: string): Record<string, unknown> {
    const change = this.subscriptionChanges.get(id) ?? {};
    const item = {
      id: 'si_fake000000000000000001',
      object: 'subscription_item',
      subscription: id,
      current_period_start: this.currentPeriodEnd - 30 * 86_400,
      current_period_end: this.currentPeriodEnd,
    } satisfies Partial<Stripe.SubscriptionItem>;
    return {
      id,
      object: 'subscription',
      status: this.canceled.has(id) ? 'canceled' : (this.subscriptionStatuses.get(id) ?? this.subscriptionStatus),
      cancel_at_period_end: change.cancel_at_period_end ?? false,
      // Billed on the day of the month its period ends.
      billing_cycle_anchor: this.currentPeriodEnd,
      pause_collection: change.pause_collection ?? null,
      discounts: (change.discounts ?? []).map((d) => d.coupon),
      items: { object: 'list', data: [item as Stripe.SubscriptionItem], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
      default_payment_method: change.default_payment_method ?? 'pm_fake000000000000000001',
      metadata: {},
    } satisfies Partial<Stripe.Subscription>;
  }

  /**
   * Like Stripe: canceling a running schedule cancels the subscription it started; one no longer
   * running (canceled, completed, released) is refused with a 400.
   */
  private cancelSchedule(id: string): Record<string, unknown> {
    const schedule = this.schedules.get(id);
    if (!schedule) return this.found('subscription_schedule', schedule, id);
    this.refuseCancelUnlessRunning(schedule.status);
    schedule.status = 'canceled';
    if (schedule.subscription) this.canceled.add(schedule.subscription);
    return schedule;
  }

  /** Stripe's 400 for canceling a schedule no longer running (canceled, completed, released). */
  protected refuseCancelUnlessRunning(status: string): void {
    if (status === 'active' || status === 'not_started') return;
    throw new StripeErrorAnswer(400, {
      error: {
        type: 'invalid_request_error',
        message: `You cannot cancel a subscription schedule that is currently in the \`${status}\` status.`,
      },
    });
  }

  private invoice(id: string): Record<string, unknown> {
    const invoice = this.invoices.get(id);
    if (!invoice) {
      throw new StripeErrorAnswer(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such invoice: '${id}'` },
      });
    }
    return invoice;
  }

  private deleteCustomer(id: string): Record<string, unknown> {
    if (this.deleted.has(id)) {
      throw new StripeErrorAnswer(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such customer: '${id}'` },
      });
    }
    this.deleted.add(id);
    return { id, object: 'customer', deleted: true };
  }

  /**
   * A PaymentIntent; one created with `confirm=true` and a saved card (a one-click charge) is
   * confirmed at once with `savedCardOutcome`: paid, waiting for the buyer's authentication, or
   * declined (Stripe's 402 card_error, which carries the intent it made).
   */
  private createPaymentIntent(r: StripeRequest): Record<string, unknown> {
    if (r.params.confirm !== 'true') return this.intent(this.newIntentId('pi'), 'payment_intent', r);
    const id = `pi_oneclick${String(++this.oneClickCharges).padStart(14, '0')}`;
    const intent = this.intent(id, 'payment_intent', r);
    if (this.savedCardOutcome === 'declined') {
      return {
        [ERROR_STATUS]: 402,
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
          payment_intent: { ...intent, status: 'requires_payment_method' },
        },
      };
    }
    return { ...intent, status: this.savedCardOutcome, payment_method: r.params.payment_method, customer: r.params.customer };
  }

  private newIntentId(prefix: 'seti' | 'pi'): string {
    return `${prefix}_fake${String(this.distinctIntents ? ++this.intentsCreated : 1).padStart(18, '0')}`;
  }

  private intent(id: string, object: string, req: StripeRequest): Record<string, unknown> {
    const metadata = Object.fromEntries(
      Object.entries(req.params).flatMap(([key, value]) => {
        const match = key.match(/^metadata\[(.+)\]$/);
        return match ? [[match[1], value]] : [];
      }),
    );
    this.metadata.set(id, metadata);
    if (req.params.amount) this.amounts.set(id, Number(req.params.amount));
    return { id, object, client_secret: `${id}_secret_fake`, status: 'requires_payment_method', metadata };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const source =
      req.method === 'GET' || req.method === 'DELETE' ? url.searchParams : new URLSearchParams(Buffer.concat(chunks).toString());
    const recorded: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: Object.fromEntries(source.entries()),
      idempotencyKey: header(req, 'idempotency-key'),
      stripeVersion: header(req, 'stripe-version'),
      authorization: header(req, 'authorization'),
      status: 0,
      replayed: false,
    };
    this.requests.push(recorded);
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      recorded.status = status;
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.requests.length}`, ...extra });
      res.end(JSON.stringify(body));
    };
    if (this.failing > 0 && (this.failingPath === null || this.failingPath === recorded.path)) {
      this.failing -= 1;
      send(500, { error: { type: 'api_error', message: 'Fake outage' } }, { 'stripe-should-retry': 'true' });
      return;
    }
    const replay = recorded.idempotencyKey ? this.answered.get(recorded.idempotencyKey) : undefined;
    if (replay) {
      recorded.replayed = true;
      if (ERROR_STATUS in replay) return send(replay[ERROR_STATUS] as number, { error: replay.error }, { 'idempotent-replayed': 'true' });
      return send(200, replay, { 'idempotent-replayed': 'true' });
    }
    for (const [method, pattern, handler] of this.routes) {
      const match = recorded.method === method ? recorded.path.match(pattern) : null;
      if (!match) continue;
      let answer: Record<string, unknown>;
      try {
        answer = handler(recorded, match[1]);
      } catch (err) {
        if (err instanceof StripeErrorAnswer) return send(err.status, err.body);
        throw err;
      }
      const status = ERROR_STATUS in answer ? (answer[ERROR_STATUS] as number) : 200;
      const body = ERROR_STATUS in answer ? { error: answer.error } : answer;
      // Stripe replays successes and card errors alike under the same Idempotency-Key.
      if (recorded.idempotencyKey) this.answered.set(recorded.idempotencyKey, answer);
      return send(status, body);
    }
    send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${recorded.method}: ${recorded.path})` } });
  }
}

/** The payment intent of the first invoice of the subscription the fake creates. */
const FIRST_INVOICE_INTENT = 'pi_fake_invoice';

/** The invoice payment linking an invoice to the payment intent that pays it (paid once `paidAt` is set). */
function invoicePaymentOf(invoice: string, paymentIntent: string, amount: number, paidAt: number | null): Stripe.InvoicePayment {
  return {
    id: `inpay_${invoice.slice('in_'.length)}`,
    object: 'invoice_payment',
    amount_paid: paidAt === null ? null : amount,
    amount_requested: amount,
    created: paidAt ?? 0,
    currency: ACCOUNT_CURRENCY,
    invoice,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntent },
    status: paidAt === null ? 'open' : 'paid',
    status_transitions: { canceled_at: null, paid_at: paidAt },
  } satisfies Stripe.InvoicePayment;
}

/** Marks a handler's answer as an error response with this HTTP status. */
const ERROR_STATUS = '__errorStatus';

export function errorAnswer(status: number, error: Record<string, unknown>): Record<string, unknown> {
  return { [ERROR_STATUS]: status, error };
}

/** The `metadata[key]` form parameters of a request, as the object's metadata. */
export function metadataOf(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).flatMap(([key, value]) => {
      const match = key.match(/^metadata\[(.+)\]$/);
      return match ? [[match[1], value]] : [];
    }),
  );
}

/** An array parameter as the SDK encodes it (`name[0]`, `name[1]`, …), in order. */
function indexed(params: Record<string, string>, name: string): string[] {
  const pattern = new RegExp(`^${name}\\[(\\d+)\\]$`);
  return Object.entries(params)
    .flatMap(([key, value]) => {
      const match = pattern.exec(key);
      return match ? [[Number(match[1]), value] as const] : [];
    })
    .sort(([a], [b]) => a - b)
    .map(([, value]) => value);
}

/** The `name[a][b]=…` form parameters as an object ({a: {b: …}}), `true`/`false` as booleans. */
function nested(params: Record<string, string>, name: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!key.startsWith(`${name}[`)) continue;
    const path = key.slice(name.length).slice(1, -1).split('][');
    let node = root;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]] = value === 'true' ? true : value === 'false' ? false : value;
  }
  return root;
}

function mergeDeep(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(change)) {
    const before = merged[key];
    merged[key] =
      typeof value === 'object' && value !== null && typeof before === 'object' && before !== null
        ? mergeDeep(before as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return merged;
}

export function list(data: unknown[]): Record<string, unknown> {
  return { object: 'list', data, has_more: false, url: '/v1/list' };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
