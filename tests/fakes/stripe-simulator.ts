import Stripe from 'stripe';
import { addMonths } from '@core/payments/billing-calendar';
import { STRIPE_API_VERSION } from '@core/payments/providers/stripe/stripe-client';
// Stripe's test cards as the sandbox reads them (https://docs.stripe.com/testing): one table for both.
import { type CardOutcome, failsOffSession, TEST_CARDS } from '../../backend/src/core/payments/providers/sandbox/sandbox-cards';
import { ACCOUNT_CURRENCY, errorAnswer, FakeStripeServer, type Handler, list, metadataOf, StripeErrorAnswer } from './stripe-server';

const DECLINES: ReadonlySet<CardOutcome> = new Set(['declined', 'insufficient_funds', 'attaches_then_fails']);
const DECLINED = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
const AUTHENTICATION_REQUIRED = {
  type: 'card_error',
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

/** Smart Retries as the sandbox's default PAYMENT_RETRY_DAYS: days after the first failure; after the last, the subscription is canceled. */
const RETRY_DAYS = [3, 5, 7];
const DAY = 86_400;

interface Method {
  id: string;
  customer: string | null;
  outcome: CardOutcome;
  last4: string;
}
interface Intent {
  id: string;
  customer: string | null;
  amount: number;
  status: Stripe.PaymentIntent.Status;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  /** The invoice it pays (a subscription's charge), null for a charge of its own. */
  invoice: string | null;
  lastError: typeof DECLINED | null;
  created: number;
}
interface Setup {
  id: string;
  customer: string | null;
  status: Stripe.SetupIntent.Status;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  lastError: typeof DECLINED | null;
}
interface Subscription {
  id: string;
  customer: string;
  amount: number;
  status: Stripe.Subscription.Status;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  cancelAtPeriodEnd: boolean;
  /** `pause_collection` (behavior void): the periods ending before then are not billed; null: not paused. */
  pauseResumesAt: number | null;
  periodStart: number;
  periodEnd: number;
  /** A schedule's subscription: how many invoices its phase bills in all (its `duration` in months). */
  cycles: number | null;
  billed: number;
  schedule: string | null;
  latestInvoice: string | null;
  created: number;
}
interface Invoice {
  id: string;
  subscription: string;
  billingReason: 'subscription_create' | 'subscription_cycle';
  status: Stripe.Invoice.Status;
  amount: number;
  intent: string;
  attempts: number;
  firstFailedAt: number | null;
  nextAttempt: number | null;
  paidAt: number | null;
  metadata: Record<string, string>;
  created: number;
}
interface Schedule {
  id: string;
  customer: string;
  status: Stripe.SubscriptionSchedule.Status;
  startDate: number;
  count: number;
  amount: number;
  paymentMethod: string | null;
  metadata: Record<string, string>;
  phaseMetadata: Record<string, string>;
  subscription: string | null;
  created: number;
}
interface RefundRecord {
  id: string;
  intent: string;
  amount: number;
  metadata: Record<string, string>;
  created: number;
}
interface DisputeRecord {
  id: string;
  intent: string;
  amount: number;
  status: Stripe.Dispute.Status;
  created: number;
}

/** What the buyer's browser learns from Stripe.js after confirming or authenticating. */
export interface BrowserOutcome {
  status: string;
  /** The card error's code when the card was declined. */
  error?: string;
}

/** Form parameters `prefix[key]` as an object ({key: value}). */
const paramsUnder = (params: Record<string, string>, prefix: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(params).flatMap(([key, value]) =>
      key.startsWith(`${prefix}[`) && key.endsWith(']') && !key.slice(prefix.length + 1, -1).includes('[')
        ? [[key.slice(prefix.length + 1, -1), value]]
        : [],
    ),
  );
const addMonthsTo = (unix: number, months: number) => Math.floor(addMonths(new Date(unix * 1000), months).getTime() / 1000);

/**
 * The Stripe fake as a Stripe account in test mode with a test clock, for the flows the money
 * model drives: every object it makes has an id of its own and a state that moves as Stripe's
 * does, each move is sent to the product's webhook route as Stripe sends it (a signed event of
 * the pinned API version, in the current shapes, one at a time in order), and `advance(days)`,
 * like a test clock, performs what falls due meanwhile: schedules starting, renewals and
 * instalments billed, failed invoices retried (Smart Retries, then canceled), periods ending.
 * The test plays the buyer's browser through `confirmPayment`, `confirmSetup` and `authenticate`
 * (what Stripe.js does with a client secret) and the card network through `decideDispute`.
 * Routes it does not model are the plain fake's.
 *
 * Its clock runs with real time plus what `advance` added. The product reads its own clock for
 * what it sends (a schedule's `start_date` is its paid_at plus a month): such a timestamp is
 * moved by the clock's offset, as if both clocks agreed, as they do in production.
 */
export class StripeSimulator extends FakeStripeServer {
  private offset = 0;
  private webhookUrl = '';
  private secret = '';
  private readonly customers = new Set<string>();
  private readonly methods = new Map<string, Method>();
  private readonly intents = new Map<string, Intent>();
  private readonly setups = new Map<string, Setup>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly invoiceRecords = new Map<string, Invoice>();
  private readonly scheduleRecords = new Map<string, Schedule>();
  private readonly refundRecords = new Map<string, RefundRecord>();
  private readonly disputeRecords = new Map<string, DisputeRecord>();
  private readonly queue: Array<Record<string, unknown>> = [];
  private delivering: Promise<void> | null = null;
  /** Events sent since the start: a caller compares two readings to see whether anything happened between them. */
  emitted = 0;
  /** Deliveries the webhook route refused (it answered other than 200 after Stripe's retries). */
  readonly refusedDeliveries: string[] = [];

  constructor() {
    super();
    const routes: Array<[string, RegExp, Handler]> = [
      ['POST', /^\/v1\/customers$/, () => this.createCustomer()],
      ['POST', /^\/v1\/setup_intents$/, (r) => this.setupObject(this.createSetup(r.params))],
      ['GET', /^\/v1\/setup_intents\/([^/]+)$/, (_r, id) => this.setupObject(this.setupById(id))],
      ['POST', /^\/v1\/payment_intents$/, (r) => this.createIntent(r.params)],
      ['GET', /^\/v1\/payment_intents\/(?!search$)([^/]+)$/, (_r, id) => this.intentObject(this.intentById(id))],
      ['POST', /^\/v1\/payment_intents\/([^/]+)\/confirm$/, (r, id) => this.confirmInvoicePayment(this.intentById(id), r.params)],
      ['GET', /^\/v1\/payment_methods\/([^/]+)$/, (_r, id) => this.methodObject(id)],
      ['POST', /^\/v1\/subscriptions$/, (r) => this.createSubscription(r.params)],
      ['GET', /^\/v1\/subscriptions\/(?!search$)([^/]+)$/, (_r, id) => this.subscriptionObject(this.subscriptionById(id))],
      ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (r, id) => this.updateSubscription(this.subscriptionById(id), r.params)],
      ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (_r, id) => this.deleteSubscription(this.subscriptionById(id))],
      ['GET', /^\/v1\/invoices$/, (r) => list(this.invoicesFound(r.params).map((i) => this.invoiceObject(i)))],
      ['GET', /^\/v1\/invoices\/([^/]+)$/, (_r, id) => this.invoiceObject(this.invoiceById(id))],
      ['GET', /^\/v1\/invoice_payments$/, (r) => list(this.invoicePaymentsFound(r.params))],
      ['POST', /^\/v1\/subscription_schedules$/, (r) => this.scheduleObject(this.createSchedule(r.params))],
      [
        'GET',
        /^\/v1\/subscription_schedules$/,
        (r) =>
          list(
            [...this.scheduleRecords.values()]
              .filter((s) => !r.params.customer || s.customer === r.params.customer)
              .map((s) => this.scheduleObject(s)),
          ),
      ],
      ['GET', /^\/v1\/subscription_schedules\/([^/]+)$/, (_r, id) => this.scheduleObject(this.scheduleById(id))],
      ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/cancel$/, (_r, id) => this.stopSchedule(this.scheduleById(id))],
      ['POST', /^\/v1\/refunds$/, (r) => this.refundIntent(r.params)],
      [
        'GET',
        /^\/v1\/refunds$/,
        (r) => list(this.refundsFound(r.params.payment_intent ?? this.intentOfCharge(r.params.charge)).map((x) => this.refundObject(x))),
      ],
      ['GET', /^\/v1\/refunds\/([^/]+)$/, (_r, id) => this.refundObject(this.byId(this.refundRecords, 'refund', id))],
      ['GET', /^\/v1\/disputes\/([^/]+)$/, (_r, id) => this.disputeObject(this.byId(this.disputeRecords, 'dispute', id))],
      ['GET', /^\/v1\/charges\/([^/]+)$/, (_r, id) => this.chargeObject(this.intentById(this.intentOfCharge(id)))],
    ];
    // Ahead of the fixed answers; `search` stays the fake's (its by-id routes would take it for an id).
    this.routes.unshift(...routes);
  }

  /** Where the events go (the product's Stripe webhook route) and the endpoint's signing secret. */
  sendEventsTo(webhookUrl: string, secret: string): void {
    this.webhookUrl = webhookUrl;
    this.secret = secret;
  }

  override reset(): void {
    super.reset();
    this.offset = 0;
    for (const records of [
      this.methods,
      this.intents,
      this.setups,
      this.subscriptions,
      this.invoiceRecords,
      this.scheduleRecords,
      this.refundRecords,
      this.disputeRecords,
    ]) {
      records.clear();
    }
    this.customers.clear();
    this.refusedDeliveries.length = 0;
  }

  /** The account's clock (unix seconds). */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offset;
  }

  /** Whether every event emitted so far has been delivered. */
  get idle(): boolean {
    return this.delivering === null && this.queue.length === 0;
  }

  /** Resolves once every event emitted so far (and any emitted meanwhile) has been delivered. */
  async delivered(): Promise<void> {
    while (this.delivering) await this.delivering;
  }

  // ---- The test clock ------------------------------------------------------------------------

  /**
   * Moves the clock `days` forward, performing in time order what falls due meanwhile, each at
   * its own moment (its events are stamped then): schedules start, periods end (billed, or the
   * subscription ends), failed invoices are retried.
   */
  advance(days: number): void {
    const target = this.now() + days * DAY;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.offset += Math.max(0, next.at - this.now());
      next.run();
    }
    this.offset += Math.max(0, target - this.now());
  }

  private nextDue(target: number): { at: number; run: () => void } | null {
    const due: Array<{ at: number; run: () => void }> = [];
    for (const schedule of this.scheduleRecords.values()) {
      if (schedule.status === 'not_started') due.push({ at: schedule.startDate, run: () => this.startSchedule(schedule) });
    }
    for (const sub of this.subscriptions.values()) {
      if (sub.status === 'canceled' || sub.status === 'incomplete' || sub.status === 'incomplete_expired' || sub.status === 'unpaid')
        continue;
      const open = this.openInvoiceOf(sub);
      if (open) {
        if (open.nextAttempt !== null) due.push({ at: open.nextAttempt, run: () => this.retry(sub, open) });
        continue;
      }
      due.push({ at: sub.periodEnd, run: () => this.endPeriod(sub) });
    }
    const earliest = due.filter((d) => d.at <= target).sort((a, b) => a.at - b.at)[0];
    return earliest ?? null;
  }

  /** A schedule's start: Stripe creates its subscription (with the phase's metadata) and bills its first invoice. */
  private startSchedule(schedule: Schedule): void {
    const sub: Subscription = {
      id: this.newId('sub'),
      customer: schedule.customer,
      amount: schedule.amount,
      status: 'active',
      metadata: { ...schedule.metadata, ...schedule.phaseMetadata },
      paymentMethod: schedule.paymentMethod,
      cancelAtPeriodEnd: false,
      pauseResumesAt: null,
      periodStart: schedule.startDate,
      periodEnd: addMonthsTo(schedule.startDate, 1),
      cycles: schedule.count,
      billed: 0,
      schedule: schedule.id,
      latestInvoice: null,
      created: this.now(),
    };
    this.subscriptions.set(sub.id, sub);
    schedule.status = 'active';
    schedule.subscription = sub.id;
    this.emit('customer.subscription.created', this.subscriptionObject(sub));
    this.bill(sub, 'subscription_create');
  }

  /** A period's end: the subscription ends (asked to, or its schedule's charges all made), or the next period is billed. */
  private endPeriod(sub: Subscription): void {
    const schedule = sub.schedule ? this.scheduleRecords.get(sub.schedule) : undefined;
    if (sub.cycles !== null && sub.billed >= sub.cycles) {
      if (schedule) schedule.status = 'completed';
      this.cancelSubscription(sub);
      return;
    }
    if (sub.cancelAtPeriodEnd) {
      this.cancelSubscription(sub);
      return;
    }
    const paused = sub.pauseResumesAt !== null && sub.periodEnd < sub.pauseResumesAt;
    sub.periodStart = sub.periodEnd;
    sub.periodEnd = addMonthsTo(sub.periodEnd, 1);
    // A paused period's invoice is void (nothing charged, no event the order acts on); Stripe lifts the pause once it ends.
    if (paused) return;
    if (sub.pauseResumesAt !== null) sub.pauseResumesAt = null;
    this.bill(sub, 'subscription_cycle');
  }

  /** Bills one period on the subscription's card, off-session: paid, or open and retried (the subscription past due). */
  private bill(sub: Subscription, billingReason: Invoice['billingReason']): void {
    const invoice = this.newInvoice(sub, billingReason);
    sub.billed += 1;
    const intent = this.intentById(invoice.intent);
    const outcome = this.outcomeOf(sub.paymentMethod);
    intent.paymentMethod = sub.paymentMethod;
    if (outcome === null || failsOffSession(outcome)) {
      this.failIntent(intent, outcome === 'always_authenticate' ? AUTHENTICATION_REQUIRED : DECLINED);
      invoice.attempts = 1;
      invoice.firstFailedAt = this.now();
      invoice.nextAttempt = this.now() + RETRY_DAYS[0] * DAY;
      this.emit('invoice.payment_failed', this.invoiceObject(invoice));
      this.setStatus(sub, 'past_due');
      return;
    }
    this.succeed(intent);
  }

  /** Charges an open invoice again on the subscription's card of now: paid, failed once more, or given up (canceled). */
  private retry(sub: Subscription, invoice: Invoice): void {
    const intent = this.intentById(invoice.intent);
    intent.paymentMethod = sub.paymentMethod;
    invoice.attempts += 1;
    const outcome = this.outcomeOf(sub.paymentMethod);
    if (outcome !== null && !failsOffSession(outcome)) {
      invoice.nextAttempt = null;
      this.succeed(intent);
      return;
    }
    this.failIntent(intent, outcome === 'always_authenticate' ? AUTHENTICATION_REQUIRED : DECLINED);
    const givenUp = invoice.attempts > RETRY_DAYS.length;
    invoice.nextAttempt = givenUp ? null : (invoice.firstFailedAt ?? invoice.created) + RETRY_DAYS[invoice.attempts - 1] * DAY;
    if (givenUp) invoice.status = 'uncollectible';
    this.emit('invoice.payment_failed', this.invoiceObject(invoice));
    if (givenUp) {
      const schedule = sub.schedule ? this.scheduleRecords.get(sub.schedule) : undefined;
      if (schedule && schedule.status === 'active') schedule.status = 'canceled';
      this.cancelSubscription(sub);
    }
  }

  // ---- The buyer's browser (Stripe.js) and the card network ----------------------------------

  /** Stripe.js's confirmCardPayment at checkout: the buyer present, the card saved for later (setup_future_usage). */
  confirmPayment(clientSecret: string, cardNumber: string): BrowserOutcome {
    const intent = this.intentBySecret(clientSecret);
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') return { status: intent.status };
    const method = this.newMethod(cardNumber, intent.customer);
    intent.paymentMethod = method.id;
    if (method.outcome === 'requires_authentication' || method.outcome === 'always_authenticate') {
      intent.status = 'requires_action';
      this.emit('payment_intent.requires_action', this.intentObject(intent));
      return { status: intent.status };
    }
    if (DECLINES.has(method.outcome)) {
      this.failIntent(intent, DECLINED);
      return { status: intent.status, error: DECLINED.code };
    }
    this.succeed(intent);
    return { status: intent.status };
  }

  /** Stripe.js's confirmCardSetup: the card saved on the customer for later (any card that attaches). */
  confirmSetup(clientSecret: string, cardNumber: string): BrowserOutcome {
    const setup = [...this.setups.values()].find((s) => `${s.id}_secret_sim` === clientSecret);
    if (!setup) throw new Error(`No setup intent has the client secret ${clientSecret}`);
    if (setup.status !== 'requires_payment_method') return { status: setup.status };
    const method = this.newMethod(cardNumber, null);
    setup.paymentMethod = method.id;
    if (method.outcome === 'declined') {
      setup.lastError = DECLINED;
      this.emit('setup_intent.setup_failed', this.setupObject(setup));
      return { status: setup.status, error: DECLINED.code };
    }
    if (method.outcome === 'requires_authentication' || method.outcome === 'always_authenticate') {
      setup.status = 'requires_action';
      this.emit('setup_intent.requires_action', this.setupObject(setup));
      return { status: setup.status };
    }
    this.setupSucceeded(setup);
    return { status: setup.status };
  }

  /** The buyer completes the bank's authentication (Stripe.js's handleNextAction). */
  authenticate(clientSecret: string): BrowserOutcome {
    const setup = [...this.setups.values()].find((s) => `${s.id}_secret_sim` === clientSecret);
    if (setup) {
      if (setup.status === 'requires_action') this.setupSucceeded(setup);
      return { status: setup.status };
    }
    const intent = this.intentBySecret(clientSecret);
    if (intent.status === 'requires_action') this.succeed(intent);
    return { status: intent.status };
  }

  /** Disputes still waiting for the seller's evidence, oldest first. */
  openDisputes(): string[] {
    return [...this.disputeRecords.values()].filter((d) => d.status === 'needs_response').map((d) => d.id);
  }

  /** The card network decides a dispute (Stripe's test evidence `winning_evidence` / `losing_evidence`). */
  decideDispute(id: string, won: boolean): void {
    const dispute = this.byId(this.disputeRecords, 'dispute', id);
    dispute.status = won ? 'won' : 'lost';
    this.emit('charge.dispute.closed', this.disputeObject(dispute));
  }

  // ---- Objects and their moves ---------------------------------------------------------------

  private newId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}_sim${String(this.sequence).padStart(20, '0')}`;
  }
  private sequence = 0;

  private createCustomer(): Record<string, unknown> {
    const id = this.newId('cus');
    this.customers.add(id);
    return { id, object: 'customer', livemode: false } satisfies Partial<Stripe.Customer>;
  }

  private newMethod(cardNumber: string, customer: string | null): Method {
    const digits = cardNumber.replace(/\D/g, '');
    const method = { id: this.newId('pm'), customer, outcome: TEST_CARDS[digits] ?? 'succeeds', last4: digits.slice(-4) };
    this.methods.set(method.id, method);
    return method;
  }

  private outcomeOf(methodId: string | null): CardOutcome | null {
    return methodId ? (this.methods.get(methodId)?.outcome ?? null) : null;
  }

  private createSetup(params: Record<string, string>): Setup {
    const setup: Setup = {
      id: this.newId('seti'),
      customer: params.customer ?? null,
      status: 'requires_payment_method',
      metadata: metadataOf(params),
      paymentMethod: null,
      lastError: null,
    };
    this.setups.set(setup.id, setup);
    return setup;
  }

  private setupSucceeded(setup: Setup): void {
    setup.status = 'succeeded';
    setup.lastError = null;
    const method = setup.paymentMethod ? this.methods.get(setup.paymentMethod) : undefined;
    if (method) method.customer = setup.customer;
    this.emit('setup_intent.succeeded', this.setupObject(setup));
  }

  /**
   * A PaymentIntent; created with `confirm=true` on a saved card (one-click, the buyer present)
   * it is charged at once: paid, waiting for authentication (a card that asks every time), or
   * declined with Stripe's 402 carrying the intent.
   */
  private createIntent(params: Record<string, string>): Record<string, unknown> {
    const intent: Intent = {
      id: this.newId('pi'),
      customer: params.customer ?? null,
      amount: Number(params.amount),
      status: 'requires_payment_method',
      metadata: metadataOf(params),
      paymentMethod: params.payment_method ?? null,
      invoice: null,
      lastError: null,
      created: this.now(),
    };
    this.intents.set(intent.id, intent);
    if (params.confirm !== 'true') return this.intentObject(intent);
    const outcome = this.outcomeOf(intent.paymentMethod);
    if (outcome === null || DECLINES.has(outcome)) {
      this.failIntent(intent, DECLINED);
      return errorAnswer(402, { ...DECLINED, payment_intent: this.intentObject(intent) });
    }
    if (outcome === 'always_authenticate') {
      intent.status = 'requires_action';
      this.emit('payment_intent.requires_action', this.intentObject(intent));
    } else {
      this.succeed(intent);
    }
    return this.intentObject(intent);
  }

  /** The product confirms a subscription's first invoice with the card just saved, the buyer on the page. */
  private confirmInvoicePayment(intent: Intent, params: Record<string, string>): Record<string, unknown> {
    if (params.payment_method) intent.paymentMethod = params.payment_method;
    const outcome = this.outcomeOf(intent.paymentMethod);
    if (intent.status !== 'requires_confirmation' && intent.status !== 'requires_payment_method') return this.intentObject(intent);
    if (outcome === null || DECLINES.has(outcome)) {
      this.failIntent(intent, DECLINED);
      const invoice = intent.invoice ? this.invoiceRecords.get(intent.invoice) : undefined;
      if (invoice) {
        invoice.attempts += 1;
        this.emit('invoice.payment_failed', this.invoiceObject(invoice));
      }
      return errorAnswer(402, { ...DECLINED, payment_intent: this.intentObject(intent) });
    }
    if (outcome === 'always_authenticate') {
      intent.status = 'requires_action';
      this.emit('payment_intent.requires_action', this.intentObject(intent));
      return this.intentObject(intent);
    }
    this.succeed(intent);
    return this.intentObject(intent);
  }

  private failIntent(intent: Intent, error: typeof DECLINED): void {
    intent.status = 'requires_payment_method';
    intent.lastError = error;
    this.emit('payment_intent.payment_failed', this.intentObject(intent));
  }

  /**
   * A charge goes through: the card is saved on the customer, an invoice it pays is paid (its
   * subscription active again), and a card that is always disputed is disputed at once.
   */
  private succeed(intent: Intent): void {
    intent.status = 'succeeded';
    intent.lastError = null;
    const method = intent.paymentMethod ? this.methods.get(intent.paymentMethod) : undefined;
    if (method && !method.customer) method.customer = intent.customer;
    this.emit('payment_intent.succeeded', this.intentObject(intent));
    const invoice = intent.invoice ? this.invoiceRecords.get(intent.invoice) : undefined;
    if (invoice) {
      invoice.status = 'paid';
      invoice.paidAt = this.now();
      invoice.nextAttempt = null;
      invoice.attempts = Math.max(invoice.attempts, 1);
      this.emit('invoice.paid', this.invoiceObject(invoice));
      const sub = this.subscriptions.get(invoice.subscription);
      if (sub && sub.status !== 'active' && sub.status !== 'canceled') this.setStatus(sub, 'active');
    }
    if (method?.outcome === 'disputed') {
      const dispute: DisputeRecord = {
        id: this.newId('du'),
        intent: intent.id,
        amount: intent.amount,
        status: 'needs_response',
        created: this.now(),
      };
      this.disputeRecords.set(dispute.id, dispute);
      this.emit('charge.dispute.created', this.disputeObject(dispute));
    }
  }

  /** Like Stripe with payment_behavior default_incomplete: the subscription waits for its first invoice's payment. */
  private createSubscription(params: Record<string, string>): Record<string, unknown> {
    const price = this.prices.get(params['items[0][price]']);
    if (!price) throw new StripeErrorAnswer(400, { error: { type: 'invalid_request_error', message: 'No such price' } });
    const sub: Subscription = {
      id: this.newId('sub'),
      customer: params.customer,
      amount: Number(price.unit_amount),
      status: 'incomplete',
      metadata: metadataOf(params),
      paymentMethod: params.default_payment_method ?? null,
      cancelAtPeriodEnd: false,
      pauseResumesAt: null,
      periodStart: this.now(),
      periodEnd: addMonthsTo(this.now(), 1),
      cycles: null,
      billed: 1,
      schedule: null,
      latestInvoice: null,
      created: this.now(),
    };
    this.subscriptions.set(sub.id, sub);
    const invoice = this.newInvoice(sub, 'subscription_create');
    this.intentById(invoice.intent).status = 'requires_confirmation';
    this.emit('customer.subscription.created', this.subscriptionObject(sub));
    return {
      ...this.subscriptionObject(sub),
      // Expanded with its payments (expand latest_invoice.payments), as the gateway asks.
      latest_invoice: { ...this.invoiceObject(invoice), payments: list(this.invoicePaymentsFound({ invoice: invoice.id })) },
    };
  }

  private newInvoice(sub: Subscription, billingReason: Invoice['billingReason']): Invoice {
    const intent: Intent = {
      id: this.newId('pi'),
      customer: sub.customer,
      amount: sub.amount,
      status: 'requires_payment_method',
      metadata: {},
      paymentMethod: sub.paymentMethod,
      invoice: null,
      lastError: null,
      created: this.now(),
    };
    const invoice: Invoice = {
      id: this.newId('in'),
      subscription: sub.id,
      billingReason,
      status: 'open',
      amount: sub.amount,
      intent: intent.id,
      attempts: 0,
      firstFailedAt: null,
      nextAttempt: null,
      paidAt: null,
      metadata: { ...sub.metadata },
      created: this.now(),
    };
    intent.invoice = invoice.id;
    this.intents.set(intent.id, intent);
    this.invoiceRecords.set(invoice.id, invoice);
    sub.latestInvoice = invoice.id;
    return invoice;
  }

  private updateSubscription(sub: Subscription, params: Record<string, string>): Record<string, unknown> {
    const before = JSON.stringify([sub.cancelAtPeriodEnd, sub.paymentMethod]);
    if (params.cancel_at_period_end !== undefined) sub.cancelAtPeriodEnd = params.cancel_at_period_end === 'true';
    if (params.default_payment_method !== undefined) sub.paymentMethod = params.default_payment_method;
    if (params['pause_collection[resumes_at]'] !== undefined) sub.pauseResumesAt = Number(params['pause_collection[resumes_at]']);
    if (params.pause_collection === '') sub.pauseResumesAt = null;
    if (JSON.stringify([sub.cancelAtPeriodEnd, sub.paymentMethod]) !== before) {
      this.emit('customer.subscription.updated', this.subscriptionObject(sub));
    }
    return this.subscriptionObject(sub);
  }

  /** Like Stripe: a subscription canceled before is `resource_missing` to a second cancel. */
  private deleteSubscription(sub: Subscription): Record<string, unknown> {
    if (sub.status === 'canceled') {
      throw new StripeErrorAnswer(400, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${sub.id}'` },
      });
    }
    const schedule = sub.schedule ? this.scheduleRecords.get(sub.schedule) : undefined;
    if (schedule && schedule.status === 'active') schedule.status = 'canceled';
    this.cancelSubscription(sub);
    return this.subscriptionObject(sub);
  }

  private cancelSubscription(sub: Subscription): void {
    sub.status = 'canceled';
    for (const invoice of this.invoiceRecords.values()) {
      if (invoice.subscription === sub.id && invoice.status === 'open') invoice.nextAttempt = null;
    }
    this.emit('customer.subscription.deleted', this.subscriptionObject(sub));
  }

  private setStatus(sub: Subscription, status: Stripe.Subscription.Status): void {
    if (sub.status === status) return;
    sub.status = status;
    this.emit('customer.subscription.updated', this.subscriptionObject(sub));
  }

  private openInvoiceOf(sub: Subscription): Invoice | undefined {
    return [...this.invoiceRecords.values()].find((i) => i.subscription === sub.id && i.status === 'open' && i.nextAttempt !== null);
  }

  private createSchedule(params: Record<string, string>): Schedule {
    const price = this.prices.get(params['phases[0][items][0][price]']);
    if (!price) throw new StripeErrorAnswer(400, { error: { type: 'invalid_request_error', message: 'No such price' } });
    // The product's start date is read on its own clock; the account's runs `offset` ahead.
    const startDate = Number(params.start_date) + this.offset;
    const schedule: Schedule = {
      id: this.newId('sub_sched'),
      customer: params.customer,
      status: 'not_started',
      startDate,
      count: Number(params['phases[0][duration][interval_count]']),
      amount: Number(price.unit_amount),
      paymentMethod: params['default_settings[default_payment_method]'] ?? null,
      metadata: metadataOf(params),
      phaseMetadata: paramsUnder(params, 'phases[0][metadata]'),
      subscription: null,
      created: this.now(),
    };
    this.scheduleRecords.set(schedule.id, schedule);
    return schedule;
  }

  /** Like Stripe: canceling a running schedule cancels its subscription; one no longer running is refused. */
  private stopSchedule(schedule: Schedule): Record<string, unknown> {
    this.refuseCancelUnlessRunning(schedule.status);
    schedule.status = 'canceled';
    const sub = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    if (sub && sub.status !== 'canceled') this.cancelSubscription(sub);
    return this.scheduleObject(schedule);
  }

  /**
   * Like Stripe: without an amount what is left is refunded; more than is left is
   * `amount_too_large`, nothing left `charge_already_refunded`, a disputed charge `charge_disputed`.
   */
  private refundIntent(params: Record<string, string>): Record<string, unknown> {
    const intent = this.intentById(params.payment_intent);
    if ([...this.disputeRecords.values()].some((d) => d.intent === intent.id && d.status !== 'won')) {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_disputed',
        message: `Charge ${chargeIdOf(intent.id)} has been charged back.`,
      });
    }
    if (intent.status !== 'succeeded') {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: 'This PaymentIntent does not have a successful charge to refund.',
      });
    }
    const left = intent.amount - this.refundedOf(intent.id);
    if (left <= 0) {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: 'Charge has already been refunded.',
      });
    }
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (amount > left) {
      return errorAnswer(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      });
    }
    const refund: RefundRecord = { id: this.newId('re'), intent: intent.id, amount, metadata: metadataOf(params), created: this.now() };
    this.refundRecords.set(refund.id, refund);
    this.emit('charge.refunded', this.chargeObject(intent));
    this.emit('refund.created', this.refundObject(refund));
    return this.refundObject(refund);
  }

  private refundedOf(intentId: string): number {
    return this.refundsFound(intentId).reduce((sum, r) => sum + r.amount, 0);
  }

  private refundsFound(intentId: string | undefined): RefundRecord[] {
    return [...this.refundRecords.values()].filter((r) => intentId === undefined || r.intent === intentId);
  }

  private invoicesFound(params: Record<string, string>): Invoice[] {
    return [...this.invoiceRecords.values()].filter(
      (i) => (!params.subscription || i.subscription === params.subscription) && (!params.status || i.status === params.status),
    );
  }

  /** Each invoice is paid by its one payment intent (retries charge the same intent again). */
  private invoicePaymentsFound(params: Record<string, string>): Stripe.InvoicePayment[] {
    return [...this.invoiceRecords.values()]
      .map((invoice) => this.invoicePaymentObject(invoice))
      .filter(
        (payment) =>
          (params.invoice === undefined || payment.invoice === params.invoice) &&
          (params.status === undefined || payment.status === params.status) &&
          (params['payment[payment_intent]'] === undefined || payment.payment.payment_intent === params['payment[payment_intent]']),
      );
  }

  // ---- Lookups -------------------------------------------------------------------------------

  private byId<T>(records: Map<string, T>, kind: string, id: string | undefined): T {
    const record = id === undefined ? undefined : records.get(id);
    if (!record) {
      throw new StripeErrorAnswer(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` },
      });
    }
    return record;
  }
  private intentById = (id: string | undefined) => this.byId(this.intents, 'payment_intent', id);
  private setupById = (id: string | undefined) => this.byId(this.setups, 'setup_intent', id);
  private subscriptionById = (id: string | undefined) => this.byId(this.subscriptions, 'subscription', id);
  private invoiceById = (id: string | undefined) => this.byId(this.invoiceRecords, 'invoice', id);
  private scheduleById = (id: string | undefined) => this.byId(this.scheduleRecords, 'subscription_schedule', id);

  private intentBySecret(clientSecret: string): Intent {
    const intent = this.intents.get(clientSecret.split('_secret_')[0]);
    if (!intent) throw new Error(`No payment intent has the client secret ${clientSecret}`);
    return intent;
  }

  private intentOfCharge(chargeId: string | undefined): string | undefined {
    return chargeId === undefined ? undefined : `pi_${chargeId.slice('ch_'.length)}`;
  }

  // ---- Objects as the pinned API version shapes them -----------------------------------------

  private intentObject(intent: Intent): Record<string, unknown> {
    return {
      id: intent.id,
      object: 'payment_intent',
      amount: intent.amount,
      amount_received: intent.status === 'succeeded' ? intent.amount : 0,
      currency: ACCOUNT_CURRENCY,
      customer: intent.customer,
      payment_method: intent.paymentMethod,
      status: intent.status,
      client_secret: `${intent.id}_secret_sim`,
      latest_charge: intent.status === 'succeeded' ? chargeIdOf(intent.id) : null,
      last_payment_error: intent.lastError as Stripe.PaymentIntent.LastPaymentError | null,
      metadata: intent.metadata,
      created: intent.created,
      livemode: false,
    } satisfies Partial<Stripe.PaymentIntent>;
  }

  private setupObject(setup: Setup): Record<string, unknown> {
    return {
      id: setup.id,
      object: 'setup_intent',
      client_secret: `${setup.id}_secret_sim`,
      customer: setup.customer,
      payment_method: setup.paymentMethod,
      status: setup.status,
      usage: 'off_session',
      last_setup_error: setup.lastError as Stripe.SetupIntent.LastSetupError | null,
      metadata: setup.metadata,
      livemode: false,
    } satisfies Partial<Stripe.SetupIntent>;
  }

  private methodObject(id: string | undefined): Record<string, unknown> {
    const method = this.byId(this.methods, 'payment_method', id);
    return {
      id: method.id,
      object: 'payment_method',
      type: 'card',
      customer: method.customer,
      card: { brand: 'visa', last4: method.last4 } as Stripe.PaymentMethod.Card,
      livemode: false,
    } satisfies Partial<Stripe.PaymentMethod>;
  }

  /** A subscription: its billing period is on its item, its schedule named when one made it. */
  private subscriptionObject(sub: Subscription): Record<string, unknown> {
    const item = {
      id: `si_${sub.id.slice('sub_'.length)}`,
      object: 'subscription_item',
      subscription: sub.id,
      current_period_start: sub.periodStart,
      current_period_end: sub.periodEnd,
    } satisfies Partial<Stripe.SubscriptionItem>;
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      pause_collection: sub.pauseResumesAt === null ? null : { behavior: 'void', resumes_at: sub.pauseResumesAt },
      // This simulator renews each period a month after the last, so its current period's start is its anchor.
      billing_cycle_anchor: sub.periodStart,
      default_payment_method: sub.paymentMethod,
      items: {
        object: 'list',
        data: [item as Stripe.SubscriptionItem],
        has_more: false,
        url: `/v1/subscription_items?subscription=${sub.id}`,
      },
      latest_invoice: sub.latestInvoice,
      schedule: sub.schedule,
      metadata: sub.metadata,
      created: sub.created,
      livemode: false,
    } satisfies Partial<Stripe.Subscription>;
  }

  /** An invoice of a subscription in the current shape: its subscription under `parent.subscription_details`. */
  private invoiceObject(invoice: Invoice): Record<string, unknown> {
    const sub = this.subscriptions.get(invoice.subscription);
    return {
      id: invoice.id,
      object: 'invoice',
      customer: sub?.customer ?? null,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: invoice.subscription, metadata: invoice.metadata },
      },
      billing_reason: invoice.billingReason,
      status: invoice.status,
      amount_due: invoice.amount,
      amount_paid: invoice.status === 'paid' ? invoice.amount : 0,
      amount_remaining: invoice.status === 'paid' ? 0 : invoice.amount,
      attempt_count: invoice.attempts,
      next_payment_attempt: invoice.nextAttempt,
      currency: ACCOUNT_CURRENCY,
      status_transitions: { paid_at: invoice.paidAt, finalized_at: invoice.created, marked_uncollectible_at: null, voided_at: null },
      created: invoice.created,
      livemode: false,
    } satisfies Partial<Stripe.Invoice>;
  }

  private invoicePaymentObject(invoice: Invoice): Stripe.InvoicePayment {
    const paid = invoice.status === 'paid';
    return {
      id: `inpay_${invoice.id.slice('in_'.length)}`,
      object: 'invoice_payment',
      amount_paid: paid ? invoice.amount : null,
      amount_requested: invoice.amount,
      created: invoice.created,
      currency: ACCOUNT_CURRENCY,
      invoice: invoice.id,
      is_default: true,
      livemode: false,
      payment: { type: 'payment_intent', payment_intent: invoice.intent },
      status: paid ? 'paid' : 'open',
      status_transitions: { canceled_at: null, paid_at: invoice.paidAt },
    } satisfies Stripe.InvoicePayment;
  }

  private scheduleObject(schedule: Schedule): Record<string, unknown> {
    return {
      id: schedule.id,
      object: 'subscription_schedule',
      customer: schedule.customer,
      status: schedule.status,
      subscription: schedule.subscription,
      end_behavior: 'cancel',
      metadata: schedule.metadata,
      created: schedule.created,
      livemode: false,
    } satisfies Partial<Stripe.SubscriptionSchedule>;
  }

  /** The charge of a payment intent (`ch_` and the intent's own suffix), as `charge.refunded` carries it. */
  private chargeObject(intent: Intent): Record<string, unknown> {
    const refunded = this.refundedOf(intent.id);
    return {
      id: chargeIdOf(intent.id),
      object: 'charge',
      payment_intent: intent.id,
      amount: intent.amount,
      amount_refunded: refunded,
      refunded: refunded >= intent.amount,
      currency: ACCOUNT_CURRENCY,
      status: 'succeeded',
      metadata: intent.metadata,
      livemode: false,
    } satisfies Partial<Stripe.Charge>;
  }

  private refundObject(refund: RefundRecord): Record<string, unknown> {
    return {
      id: refund.id,
      object: 'refund',
      amount: refund.amount,
      currency: ACCOUNT_CURRENCY,
      payment_intent: refund.intent,
      charge: chargeIdOf(refund.intent),
      status: 'succeeded',
      metadata: refund.metadata,
      created: refund.created,
    } satisfies Partial<Stripe.Refund>;
  }

  private disputeObject(dispute: DisputeRecord): Record<string, unknown> {
    return {
      id: dispute.id,
      object: 'dispute',
      amount: dispute.amount,
      currency: ACCOUNT_CURRENCY,
      charge: chargeIdOf(dispute.intent),
      payment_intent: dispute.intent,
      reason: 'fraudulent',
      status: dispute.status,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: null },
      },
      metadata: {},
      created: dispute.created,
      livemode: false,
    } satisfies Partial<Stripe.Dispute>;
  }

  // ---- Webhook events ------------------------------------------------------------------------

  /** Queues an event about `object` as it is now; events go out one at a time, in the order they happened. */
  private emit(type: Stripe.Event.Type, object: Record<string, unknown>): void {
    const envelope = {
      id: this.newId('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: this.now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } satisfies Omit<Partial<Stripe.Event>, 'data'>;
    this.queue.push({ ...envelope, data: { object } });
    this.emitted += 1;
    this.delivering ??= this.deliver();
  }

  private async deliver(): Promise<void> {
    while (this.queue.length > 0) {
      const event = this.queue.shift()!;
      if (this.webhookUrl) await this.post(event);
    }
    this.delivering = null;
  }

  /** One delivery, signed as Stripe signs it; retried a few times on a refusal, as Stripe retries. */
  private async post(event: Record<string, unknown>): Promise<void> {
    const payload = JSON.stringify(event);
    let answer = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.secret });
      try {
        const res = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        if (res.status === 200) return;
        answer = `${res.status} ${await res.text()}`;
      } catch (err) {
        answer = (err as Error).message;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
    this.refusedDeliveries.push(`${String(event.type)} ${String(event.id)}: ${answer}`);
  }
}

const chargeIdOf = (intentId: string) => `ch_${intentId.slice('pi_'.length)}`;
