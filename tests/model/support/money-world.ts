import { Test, type TestingModule } from '@nestjs/testing';
import Redis from 'ioredis';
import request from 'supertest';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QUEUES } from '@contracts/jobs';
import { type PlanId, planOf } from '@contracts/plans';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { SandboxObjectRepository } from '@core/database/repositories/sandbox-object.repository';
import { PAYMENT_GATEWAY, type PaymentGateway } from '@core/payments/payment-gateway';
import { OutboxRelay } from '@core/queue/outbox-relay.service';
import { JobRegistry } from '../../../worker/src/jobs/job-registry';
import { InvitationsProcessor } from '../../../worker/src/processors/invitations.processor';
import { MaintenanceProcessor } from '../../../worker/src/processors/maintenance.processor';
import { PaymentsProcessor } from '../../../worker/src/processors/payments.processor';
import { TrackingProcessor } from '../../../worker/src/processors/tracking.processor';
import { PaymentReconciler } from '../../../worker/src/reconciler/payment-reconciler';
import { PauseReminders } from '../../../worker/src/reconciler/pause-reminders';
import { WorkerModule } from '../../../worker/src/worker.module';
import { repoRoot } from '../../../scripts/lib/app-processes';
import { FakeAffiliateServer } from '../../fakes/affiliate-server';
import { DoorHold } from '../../fakes/door-hold';
import { FakeGa4MpServer } from '../../fakes/ga4-mp-server';
import { FakeMembersArea } from '../../fakes/members-area-server';
import { FakeMetaCapiServer } from '../../fakes/meta-capi-server';
import { SmtpSink } from '../../fakes/smtp-sink';
import { adminSignIn, type AdminSession } from '../../integration/support/admin';
import { sendSignedWebhook } from '../../integration/support/payments';
import {
  clientAddresses,
  outboxDrained,
  resetData,
  resetRateLimits,
  type Stack,
  startStack,
  waitFor,
} from '../../integration/support/stack';

/** Stripe's test cards the model buys with (the sandbox behaves as Stripe's test mode does with each). */
export const CARDS = {
  pays: '4242424242424242',
  authenticatesOnce: '4000002500003155',
  authenticatesAlways: '4000002760003184',
  failsLater: '4000000000000341',
  declined: '4000000000000002',
  /** Pays, then every payment made with it is disputed at once (decided by the evidence sent). */
  disputed: '4000000000000259',
} as const;
export type CardName = keyof typeof CARDS;

const SECRET = 'whsec_moneymodelsecret00000000000';
const MEMBERS_SECRET = `whsec_${Buffer.from('members-area-model-secret-012345').toString('base64')}`;
const META_TOKEN = 'meta-model-token';
const WORKER_DIST = join(repoRoot, 'dist', 'worker', 'src');
/**
 * A worker process started ahead: it loads the compiled worker's modules (most of a start, on a
 * busy machine), then waits for a byte on its stdin to run the worker's main, or ends if stdin
 * closes first. A kill's new worker is then working within a moment, not a few seconds.
 */
const STANDBY_WORKER = [
  `require(${JSON.stringify(join(WORKER_DIST, 'worker.module'))});`,
  `if (require('node:fs').readSync(0, Buffer.alloc(1), 0, 1, null) === 0) process.exit(0);`,
  `require(${JSON.stringify(join(WORKER_DIST, 'main'))});`,
].join(' ');

const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });

export interface Buyer {
  email: string;
  /** The buyer's browser: its buyer-key cookie, once a checkout set it (one-click reads it). */
  cookie: string;
}

/**
 * Where a kill of the worker lands: 'mid-call' while a third party holds its answer to the n-th
 * call (done there, not yet recorded by the worker); 'claimed' as soon as a side effect is seen
 * claimed and not yet recorded; 'relayed' as soon as a job is seen handed to the worker and not
 * yet done (anywhere in it).
 */
export type KillPoint = 'mid-call' | 'claimed' | 'relayed';

/** Kills so far, by where each landed, and the commands whose work ended before their kill point came (no kill). */
export interface KillTally {
  midCall: number;
  claimed: number;
  relayed: number;
  notReached: number;
}

/** What the model knows of an order beyond Postgres: when it was bought (in sandbox days) and with which card. */
export interface OrderFacts {
  boughtOnDay: number;
  card: CardName;
}

/**
 * The real product, as one buyer's journeys and one admin's screens drive it: the API in this
 * process and the compiled worker (dist/) as a child process that can be killed mid-job, over the
 * test run's Postgres and Redis, the sandbox as the payment provider, and every third party a
 * loopback fake recording what it received (all sharing one hold, to keep an answer at a door).
 */
/** What a member does on /account: cancel, resume, change the card, or pause (the cancellation flow's offer). */
export type AccountAction = 'cancel' | 'resume' | 'card' | 'pause';
/** The months the k-th member's pause lasts: 1, 2 or 3. */
export const pauseMonths = (k: number): number => (k % 3) + 1;

export class MoneyWorld {
  readonly smtp = new SmtpSink();
  readonly affiliate = new FakeAffiliateServer();
  readonly meta = new FakeMetaCapiServer({ accessToken: META_TOKEN });
  readonly ga4 = new FakeGa4MpServer();
  readonly members = new FakeMembersArea(MEMBERS_SECRET);
  readonly hold = new DoorHold();
  readonly kills: KillTally = { midCall: 0, claimed: 0, relayed: 0, notReached: 0 };
  stack!: Stack;
  buyers: Buyer[] = [];
  /** Sandbox days since the run began: the clock's offset. */
  day = 0;
  readonly orders = new Map<string, OrderFacts>();
  /** Each order's payment count when its access was first seen revoked or its plan stopped: nothing may be charged after. */
  readonly revokedAt = new Map<string, number>();
  /**
   * The kind of each side effect a killed worker left claimed and unrecorded: its call may have
   * been answered just before the kill, so the new worker sends it again under the same key (the
   * third party counts it once; at the door it is a repeat).
   */
  readonly unrecordedAtKills: string[] = [];
  private admin!: AdminSession;
  private readonly nextIp = clientAddresses(201);
  private run = 0;
  protected readonly webhookSecret: string = SECRET;
  private worker: ChildProcess | null = null;
  private standby: ChildProcess | null = null;
  /** The worker's providers in this process, without its consumers or relay: the model's reconciler passes. */
  protected reconcilerModule: TestingModule | null = null;
  private redis: Redis | null = null;

  async start(): Promise<void> {
    if (!existsSync(join(WORKER_DIST, 'main.js')))
      throw new Error('No compiled worker in dist/: run the model through npm test, which builds it');
    for (const fake of [this.smtp, this.affiliate, this.meta, this.ga4, this.members]) fake.answerHold = this.hold;
    const env = {
      SMTP_URL: await this.smtp.start(),
      AFFILIATE_API_URL: await this.affiliate.start(),
      AFFILIATE_API_KEY: 'affiliate-key',
      META_CAPI_URL: await this.meta.start(),
      META_PIXEL_ID: '1234567890',
      META_CAPI_ACCESS_TOKEN: META_TOKEN,
      GA4_MP_URL: await this.ga4.start(),
      GA4_MEASUREMENT_ID: 'G-MODEL1',
      GA4_API_SECRET: 'ga4-secret',
      MEMBERSHIP_WEBHOOK_URL: await this.members.start(),
      MEMBERSHIP_WEBHOOK_SECRET: MEMBERS_SECRET,
      ...(await this.providerEnv()),
      TRUST_PROXY: 'true',
      RATE_LIMIT_INTENTS_PER_CLIENT: '100000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '100000',
      RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '100000',
      RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL: '100000',
      RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT: '100000',
      ONE_CLICK_WINDOW_MINUTES: '60',
      JOB_RETRY_HORIZON_S: '120',
    };
    // The stack's in-process worker clears what earlier spec files left in the outbox and Redis;
    // the compiled worker then takes over, started with the settings the stack put in process.env.
    this.stack = await startStack(env);
    await this.stack.stopWorker();
    this.startWorker();
    const reconciler = Test.createTestingModule({ imports: [WorkerModule] });
    for (const consumer of [JobRegistry, OutboxRelay, TrackingProcessor, PaymentsProcessor, InvitationsProcessor, MaintenanceProcessor]) {
      reconciler.overrideProvider(consumer).useValue({});
    }
    this.reconcilerModule = await reconciler.compile();
    this.redis = new Redis(process.env.REDIS_URL!);
    // Orders are recorded as checkout records them with a Stripe live key (the sandbox's are test
    // orders), so sales reach the affiliate service, Meta and GA4 from the first event on.
    Object.defineProperty(this.stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY), 'livemode', { value: true });
    this.admin = await adminSignIn(this.stack.url, { email: 'model-admin@example.com', password: 'model-admin-password-1' });
  }

  /** The payment provider's settings: the sandbox, whose events are signed with the secret `redeliver` signs with. */
  protected async providerEnv(): Promise<Record<string, string>> {
    return { SANDBOX_WEBHOOK_SECRET: this.webhookSecret, STRIPE_SECRET_KEY: '' };
  }

  async stop(): Promise<void> {
    this.standby?.kill('SIGKILL');
    await this.endWorker('SIGTERM');
    await this.reconcilerModule?.close();
    this.redis?.disconnect();
    await this.stack?.stop();
    await Promise.all([this.smtp.stop(), this.affiliate.stop(), this.meta.stop(), this.ga4.stop(), this.members.stop()]);
  }

  /** A fresh world for one sequence: no orders, the clock at day 0, the fakes' records empty, new buyers. */
  async reset(): Promise<void> {
    await this.settle();
    await resetData(this.stack.db);
    await this.stack.db.query(
      `TRUNCATE orders, payment_events, sandbox_objects, memberships, account_link_tokens, account_sessions CASCADE`,
    );
    await this.stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
    await resetRateLimits();
    for (const fake of [this.smtp, this.affiliate, this.meta, this.ga4, this.members]) fake.reset();
    this.run += 1;
    this.buyers = [0, 1].map((i) => ({ email: `model-${this.run}-${i}@example.com`, cookie: '' }));
    this.day = 0;
    this.orders.clear();
    this.revokedAt.clear();
    this.unrecordedAtKills.length = 0;
  }

  /** Waits until every job owed so far has ended: whatever the last command caused has reached the fakes. */
  async settle(): Promise<void> {
    await outboxDrained(this.stack.db, 60_000);
  }

  private post(path: string, body: object, buyer?: Buyer) {
    const req = request(this.stack.url).post(path).set('X-Forwarded-For', this.nextIp());
    if (buyer?.cookie) req.set('Cookie', buyer.cookie);
    return req.send(body);
  }

  private keepCookie(buyer: Buyer, res: request.Response): void {
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('buyer_key='));
    if (cookie) buyer.cookie = cookie.split(';')[0];
  }

  /** The buyer pays the plan with the card as the checkout page does; resolves with what happened. */
  async buy(planId: PlanId, cardName: CardName, buyerIndex: number): Promise<string> {
    const plan = planOf(planId);
    const buyer = this.buyers[buyerIndex];
    const party = { email: buyer.email, name: 'Model Buyer', source: 'clear', referral: 'partner7' };
    const before = await this.orderIds();
    let outcome: string;
    if (plan.kind === 'one-time') {
      const res = await this.post('/api/create-payment-intent', { ...party, plan: plan.name, amount: plan.amount }, buyer);
      if (res.status !== 200) return `refused ${res.status}`;
      this.keepCookie(buyer, res);
      outcome = await this.confirm('payment', res.body.clientSecret as string, cardName, '/success');
    } else {
      const setup = await this.post('/api/create-setup-intent', { ...party, planId }, buyer);
      if (setup.status !== 200) return `refused ${setup.status}`;
      this.keepCookie(buyer, setup);
      const clientSecret = setup.body.clientSecret as string;
      const saved = await this.confirm('setup', clientSecret, cardName, '/checkout');
      if (saved !== 'succeeded' && saved !== 'authenticated: succeeded') outcome = `card setup ${saved}`;
      else {
        const body = { ...party, setupIntentId: clientSecret.split('_secret_')[0], plan: plan.name, amount: plan.amount };
        const res = await this.post('/api/confirm-subscription', body, buyer);
        if (res.status !== 200) outcome = `subscription refused ${res.status}`;
        else if (res.body.clientSecret) outcome = await this.authenticate(res.body.clientSecret as string, '/success');
        else outcome = 'subscribed';
      }
    }
    for (const id of await this.orderIds()) if (!before.has(id)) this.orders.set(id, { boughtOnDay: this.day, card: cardName });
    return outcome;
  }

  /** Confirms a payment or a card setup with the card, as the page does; a bank that asks is answered 'complete' on its page. */
  protected async confirm(intent: 'payment' | 'setup', clientSecret: string, cardName: CardName, page: string): Promise<string> {
    const path = intent === 'payment' ? '/api/sandbox/confirm-payment' : '/api/sandbox/confirm-setup';
    const res = await this.post(path, { clientSecret, card: card(CARDS[cardName]), returnUrl: `${this.stack.url}${page}` });
    if (res.status !== 200) return `refused (${res.status})`;
    if (res.body.redirectUrl) return this.authenticate(clientSecret, page);
    return res.body.error ? `declined: ${String(res.body.error.code)}` : String(res.body.intent?.status);
  }

  protected async authenticate(clientSecret: string, page: string): Promise<string> {
    const answer = await request(this.stack.url)
      .post('/api/sandbox/authenticate')
      .type('form')
      .send({ client_secret: clientSecret, return_url: `${this.stack.url}${page}`, outcome: 'complete' });
    return answer.status === 303
      ? `authenticated: ${new URL(answer.headers.location).searchParams.get('redirect_status')}`
      : `authentication ${answer.status}`;
  }

  /**
   * The one-click upsell of a one-time plan in the buyer's browser, clicked once or twice at once.
   * `overtaken`: the provider's event about the charge is applied before the API stores the
   * charge's id (a slow API): the API's write waits until the order is paid.
   */
  async oneClick(planId: PlanId, buyerIndex: number, clicks: 1 | 2, overtaken = false): Promise<string> {
    const buyer = this.buyers[buyerIndex];
    if (!buyer.cookie) return 'no browser';
    const before = await this.orderIds();
    const body = { email: buyer.email, name: 'Model Buyer', source: 'clear', planId };
    const orders = this.stack.api!.get(OrderRepository);
    const store = orders.setProviderIds.bind(orders);
    const slow = overtaken
      ? jest.spyOn(orders, 'setProviderIds').mockImplementation(async (orderId, ids) => {
          await waitFor(
            async () => (await this.stack.db.query(`SELECT 1 FROM orders WHERE id = $1 AND paid_at IS NOT NULL`, [orderId])).length > 0,
            "the charge's event applied first",
            10_000,
          ).catch(() => undefined);
          return store(orderId, ids);
        })
      : null;
    let answers: request.Response[];
    try {
      answers = await Promise.all(Array.from({ length: clicks }, () => this.post('/api/one-click', body, buyer)));
    } finally {
      slow?.mockRestore();
    }
    for (const id of await this.orderIds()) if (!before.has(id)) this.orders.set(id, { boughtOnDay: this.day, card: 'pays' });
    return answers.map((a) => `${a.status}${a.body?.status ? ` ${String(a.body.status)}` : ''}`).join(', ');
  }

  /** The provider's clock: the sandbox's, as the model has moved it, read as the sandbox reads it. */
  providerNow(): Promise<Date> {
    return this.stack.api!.get(SandboxObjectRepository).clockNow(this.stack.db);
  }

  /** Moves the sandbox's clock: renewals, instalments, retries and period ends fall due. */
  async advance(days: number): Promise<string> {
    await this.settle();
    const res = await this.post('/api/sandbox/clock', { advanceDays: days });
    if (res.status !== 200) throw new Error(`The sandbox clock answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.day += days;
    return `day ${this.day}`;
  }

  /** The admin refunds the k-th payment (of all, oldest first), in full or a third of what is left. */
  async refund(k: number, full: boolean): Promise<string> {
    const payments: Array<{ id: string; left: number }> = await this.stack.db.query(
      `SELECT p.id, p.amount_cents - COALESCE((SELECT sum(r.amount_cents) FROM refunds r WHERE r.payment_id = p.id AND r.status NOT IN ('failed', 'canceled')), 0) AS left
         FROM payments p ORDER BY p.created_at, p.sequence`,
    );
    if (payments.length === 0) return 'no payment';
    const payment = payments[k % payments.length];
    const amountCents = full ? undefined : Math.max(1, Math.floor(Number(payment.left) / 3));
    const res = await request(this.stack.url)
      .post(`/api/admin/billing/payments/${payment.id}/refunds`)
      .set('Cookie', this.admin.cookie)
      .set('x-csrf-token', this.admin.csrfToken)
      .send({ requestKey: randomUUID(), ...(amountCents ? { amountCents } : {}) });
    return `${res.status}${res.status >= 400 ? ` ${String(res.body?.message ?? '')}` : ''}`;
  }

  /** The k-th dispute still open (of all, oldest first) is decided by Stripe's test evidence: won or lost. */
  async decideDispute(k: number, won: boolean): Promise<string> {
    const open: Array<{ id: string }> = await this.stack.db.query(
      `SELECT id FROM sandbox_objects WHERE object = 'dispute' AND status = 'needs_response' ORDER BY created_at, id`,
    );
    if (open.length === 0) return 'no open dispute';
    const { id } = open[k % open.length];
    const evidence = won ? 'winning_evidence' : 'losing_evidence';
    const res = await this.post(`/api/sandbox/disputes/${id}/evidence`, { evidence });
    return `${res.status}${res.status >= 400 ? ` ${String(res.body?.message ?? '')}` : ''}`;
  }

  /** The admin stops the k-th instalment plan (of all, oldest first) from the orders screen. */
  async stopInstalments(k: number): Promise<string> {
    const plans: Array<{ id: string }> = await this.stack.db.query(
      `SELECT id FROM orders WHERE instalments IS NOT NULL AND paid_at IS NOT NULL ORDER BY created_at, id`,
    );
    if (plans.length === 0) return 'no instalment plan';
    const { id } = plans[k % plans.length];
    const res = await request(this.stack.url)
      .post(`/api/admin/billing/orders/${id}/stop-instalments`)
      .set('Cookie', this.admin.cookie)
      .set('x-csrf-token', this.admin.csrfToken)
      .send({});
    return `${res.status}${res.status >= 400 ? ` ${String(res.body?.message ?? '')}` : ''}`;
  }

  /** The buyer of the k-th membership order signs in on /account and cancels, resumes or puts in a new card. */
  async account(action: AccountAction, k: number, cardName: CardName = 'pays'): Promise<string> {
    const subscriptions: Array<{ id: string; email: string }> = await this.stack.db.query(
      `SELECT id, email FROM orders WHERE kind = 'subscription' AND paid_at IS NOT NULL ORDER BY created_at`,
    );
    if (subscriptions.length === 0) return 'no membership';
    const { id: orderId, email } = subscriptions[k % subscriptions.length];
    const session = await this.signIn(email);
    const authed = (path: string, body: object) => this.post(path, body).set('Cookie', session.cookie).set('x-csrf-token', session.csrf);
    if (action === 'pause') return String((await authed('/api/account/pause', { orderId, reason: 'not_using', months: pauseMonths(k) })).status);
    if (action !== 'card') return String((await authed(`/api/account/${action}`, { orderId })).status);
    const setup = await authed('/api/account/card/setup', { orderId });
    if (setup.status !== 200) return `card setup ${setup.status}`;
    const saved = await this.confirm('setup', setup.body.clientSecret as string, cardName, '/account');
    if (saved !== 'succeeded' && saved !== 'authenticated: succeeded') return `card ${saved}`;
    return `card ${(await authed('/api/account/card', { orderId, setupIntentId: setup.body.setupIntentId })).status}`;
  }

  private async signIn(email: string): Promise<{ cookie: string; csrf: string }> {
    const link = /https?:\/\/[^\s"<>]+\/account\?token=([A-Za-z0-9_-]+)/;
    const seen = this.smtp.messages.length;
    await this.post('/api/account/link', { email }).expect(202);
    const mail = await waitFor(
      () => this.smtp.messages.slice(seen).find((m) => m.envelope.to.includes(email) && link.test(m.text ?? '')),
      'the sign-in e-mail',
    );
    const [, token] = link.exec(mail?.text ?? '') ?? [];
    const res = await this.post('/api/account/session', { token }).expect(200);
    return { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.body.csrfToken as string };
  }

  /**
   * The provider delivers the k-th stored event again: as itself (a duplicate), or under a new
   * id after everything since (out of order). Either way the worker re-reads the object.
   */
  async redeliver(k: number, asNew: boolean): Promise<string> {
    const events: Array<{ id: string; type: string; payload: Record<string, unknown> }> = await this.stack.db.query(
      `SELECT id, type, payload FROM payment_events ORDER BY received_at, id`,
    );
    if (events.length === 0) return 'no event';
    const event = events[k % events.length];
    const id = asNew ? `evt_model${randomUUID().replace(/-/g, '').slice(0, 20)}` : event.id;
    const res = await sendSignedWebhook(this.stack.url, this.webhookSecret, { ...event.payload, id, type: event.type });
    return `${event.type} ${asNew ? 'out of order' : 'again'}: ${JSON.stringify(res.body)}`;
  }

  /** The worker's reconciler makes a pass (it runs on a timer in production): lapsed graces end, stale events apply. */
  async reconcile(): Promise<string> {
    const reconciled = await this.reconcilerModule!.get(PaymentReconciler).reconcile();
    // The pause pass too: it pauses and restores the access of members who paused.
    const reminders = await this.reconcilerModule!.get(PauseReminders).run();
    return JSON.stringify({ ...reconciled, pauseReminders: reminders });
  }

  /** The worker goes away between two jobs and comes back (a deploy): owed work waits in the outbox. */
  async restartWorker(): Promise<string> {
    await this.endWorker('SIGTERM');
    this.startWorker();
    return 'restarted';
  }

  /**
   * Runs `act` and SIGKILLs the worker process at `point` of the work it causes (the n-th call
   * acted on, for 'mid-call'); then a new worker process starts, and `act` is awaited (it may
   * itself wait for the worker). With `times` 2 the new worker is killed too, at its first call
   * for 'mid-call' (a crash loop: a job in flight at both kills has stalled twice). `door` counts
   * only the calls at that fake ('SMTP', 'affiliate', 'MetaCapi', 'Ga4Mp', 'members area');
   * `whileDead` runs between a kill and the new worker's start. If the work ends before the point
   * comes, nothing more is killed.
   */
  async killWorker(
    act: (world: MoneyWorld) => Promise<string>,
    {
      point,
      nth = 1,
      times = 1,
      door = null,
      whileDead,
    }: { point: KillPoint; nth?: number; times?: 1 | 2; door?: string | null; whileDead?: () => Promise<void> },
  ): Promise<string> {
    let acted = false;
    const outcome = act(this).finally(() => (acted = true));
    // Awaited below; a rejection must not count as unhandled while the kills are under way.
    outcome.catch(() => undefined);
    const landings: string[] = [];
    for (let kill = 1; kill <= times; kill++) {
      let heldAt: string | null = null;
      if (point === 'mid-call') void this.hold.arm(kill === 1 ? nth : 1, door).then((door) => (heldAt = door));
      let landed: keyof KillTally;
      try {
        landed = await this.whenToKill(
          point,
          () => heldAt !== null,
          () => acted,
        );
      } finally {
        this.hold.disarm();
      }
      this.kills[landed] += 1;
      if (landed === 'notReached') {
        landings.push(`its work ended before the worker could be killed ${point}`);
        break;
      }
      await this.endWorker('SIGKILL');
      // The held answer now meets a closed connection: done at the third party, never heard of by the worker.
      await this.hold.release();
      const unrecorded: Array<{ kind: string }> = await this.stack.db.query(`SELECT kind FROM side_effects WHERE status = 'claimed'`);
      this.unrecordedAtKills.push(...unrecorded.map((row) => row.kind));
      await this.lapseLocks();
      await whileDead?.();
      this.startWorker();
      const where = {
        midCall: `mid-call at the ${String(heldAt)}`,
        claimed: 'with a side effect claimed',
        relayed: 'with a job handed over',
      };
      landings.push(`worker killed ${where[landed]}`);
    }
    return `${await outcome}; ${landings.join('; ')}`;
  }

  /** Polls until the kill point is reached, or the act and every job it owed are over ('notReached'). */
  private async whenToKill(point: KillPoint, held: () => boolean, acted: () => boolean): Promise<keyof KillTally> {
    const reached: Record<Exclude<KillPoint, 'mid-call'>, string> = {
      claimed: `SELECT 1 FROM side_effects WHERE status = 'claimed' LIMIT 1`,
      relayed: `SELECT 1 FROM outbox WHERE dispatched_at IS NOT NULL AND completed_at IS NULL AND failed_at IS NULL LIMIT 1`,
    };
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (point === 'mid-call' && held()) return 'midCall';
      if (point !== 'mid-call' && (await this.stack.db.query(reached[point])).length > 0) return point;
      if (
        acted() &&
        (await this.stack.db.query(`SELECT 1 FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL LIMIT 1`)).length === 0
      ) {
        return 'notReached';
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`Neither the kill point (${point}) nor the end of the work came within 60 s`);
  }

  /**
   * The killed worker's BullMQ job locks lapse at once, as they would after the consumers'
   * lockDuration, and its active jobs are marked as a stall check would have marked them: the new
   * worker's first stall check (at its start) takes them over, instead of up to 15 s later.
   */
  private async lapseLocks(): Promise<void> {
    for (const queue of Object.values(QUEUES)) {
      const active = await this.redis!.lrange(`bull:${queue}:active`, 0, -1);
      if (active.length === 0) continue;
      await this.redis!.del(...active.map((id) => `bull:${queue}:${id}:lock`), `bull:${queue}:stalled-check`);
      await this.redis!.sadd(`bull:${queue}:stalled`, ...active);
    }
  }

  /**
   * Starts the compiled worker over the stack's Postgres and Redis, with the settings the stack
   * put in process.env: the standby process, and another standby for the next start.
   */
  private startWorker(): void {
    const worker = this.standby ?? this.spawnStandby();
    worker.stdin!.end('go');
    this.worker = worker;
    this.standby = this.spawnStandby();
  }

  private spawnStandby(): ChildProcess {
    return spawn(process.execPath, ['-e', STANDBY_WORKER], {
      env: { ...process.env, WORKER_NICENESS: '0' },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
  }

  /** Sends the worker `signal` (SIGTERM: it finishes its jobs in flight first) and waits until it has exited. */
  private async endWorker(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill(signal);
    await exited;
  }

  /** Whether the members area lets each membership in, as it applied the notices it accepted (by sequence). */
  receiverAccess(membershipId: string): boolean {
    return this.members.state(membershipId)?.access ?? false;
  }

  private async orderIds(): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await this.stack.db.query(`SELECT id FROM orders`);
    return new Set(rows.map((r) => r.id));
  }
}
