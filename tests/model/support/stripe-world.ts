import { PAYMENT_GATEWAY, type PaymentGateway } from '@core/payments/payment-gateway';
import { StripeSimulator } from '../../fakes/stripe-simulator';
import { stripeFakeEnv } from '../../integration/support/payments';
import { CARDS, type CardName, MoneyWorld } from './money-world';

/**
 * The money model's world with Stripe as the payment provider: the product's Stripe gateway
 * against the Stripe fake playing a test-mode account with a test clock (StripeSimulator), which
 * sends its signed events to the product's webhook route. The buyer's browser is the fake's
 * Stripe.js stand-in; the clock is the fake's; disputes are decided by the fake's card network.
 * Everything else (checkout, one-click, the admin, /account, redeliveries, restarts, the
 * reconciler, every invariant) is the sandbox world's, unchanged.
 */
export class StripeWorld extends MoneyWorld {
  readonly stripe = new StripeSimulator();

  protected override async providerEnv(): Promise<Record<string, string>> {
    await this.stripe.start();
    return stripeFakeEnv(this.stripe.port, this.webhookSecret);
  }

  override async start(): Promise<void> {
    await super.start();
    this.stripe.sendEventsTo(`${this.stack.url}/api/webhooks/stripe`, this.webhookSecret);
    this.readAccountClock();
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.stripe.stop();
  }

  override async reset(): Promise<void> {
    await super.reset();
    this.stripe.reset();
  }

  /**
   * Until the fake's events have all been delivered and every job they (and the jobs' own calls
   * to Stripe, which send more) owed has ended.
   */
  override async settle(): Promise<void> {
    for (;;) {
      const seen = this.stripe.emitted;
      await this.stripe.delivered();
      await super.settle();
      if (this.stripe.emitted === seen && this.stripe.idle) break;
    }
    if (this.stripe.refusedDeliveries.length > 0) {
      throw new Error(`The webhook route refused Stripe's events:\n  ${this.stripe.refusedDeliveries.join('\n  ')}`);
    }
  }

  /** Stripe.js in the buyer's browser confirms the payment or card setup; a bank that asks is answered at once. */
  protected override confirm(intent: 'payment' | 'setup', clientSecret: string, cardName: CardName, page: string): Promise<string> {
    const number = CARDS[cardName];
    const outcome =
      intent === 'payment' ? this.stripe.confirmPayment(clientSecret, number) : this.stripe.confirmSetup(clientSecret, number);
    if (outcome.status === 'requires_action') return this.authenticate(clientSecret, page);
    return Promise.resolve(outcome.error ? `declined: ${outcome.error}` : outcome.status);
  }

  /** The buyer completes the bank's authentication (Stripe.js's handleNextAction). */
  protected override authenticate(clientSecret: string, _page: string): Promise<string> {
    return Promise.resolve(`authenticated: ${this.stripe.authenticate(clientSecret).status}`);
  }

  /** The fake account's test clock moves: renewals, schedules' instalments, retries and period ends fall due. */
  /** The provider's clock: the fake account's test clock. */
  override providerNow(): Promise<Date> {
    return Promise.resolve(new Date(this.stripe.now() * 1000));
  }

  override async advance(days: number): Promise<string> {
    await this.settle();
    this.stripe.advance(days);
    this.day += days;
    return `day ${this.day}`;
  }

  /** The k-th dispute still open (oldest first) is decided by the card network: won or lost. */
  override decideDispute(k: number, won: boolean): Promise<string> {
    const open = this.stripe.openDisputes();
    if (open.length === 0) return Promise.resolve('no open dispute');
    this.stripe.decideDispute(open[k % open.length], won);
    return Promise.resolve('decided');
  }

  override async restartWorker(): Promise<string> {
    const outcome = await super.restartWorker();
    this.readAccountClock();
    return outcome;
  }

  /**
   * The gateway's `now()` (the grace of a past-due order is counted on it) reads the account's
   * test clock, as the sandbox gateway reads the sandbox's: in production both are real time.
   * In this process: the API and the reconciler's passes, where a lapsed grace is ended. The
   * worker's own process keeps real time: its timed passes end no grace before this one would.
   */
  private readAccountClock(): void {
    for (const app of [this.stack.api, this.stack.worker, this.reconcilerModule]) {
      const gateway = app?.get<PaymentGateway>(PAYMENT_GATEWAY);
      if (gateway)
        Object.defineProperty(gateway, 'now', { configurable: true, value: () => Promise.resolve(new Date(this.stripe.now() * 1000)) });
    }
  }
}
