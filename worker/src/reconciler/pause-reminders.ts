import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PaymentsConfig } from '@core/config/config-sections';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { redact } from '../jobs/redact';
import { PeriodicPass } from './periodic-pass';

/** A pause's reminder goes this long before it ends. */
const PAUSE_REMINDER_LEAD_DAYS = 3;

const BATCH = 100;

/**
 * Every PAUSE_REMINDER_INTERVAL_S, pauses and restores the access of members whose pause has
 * begun or ended, and owes the reminder e-mail of each pause (taken in the
 * cancellation flow) that ends within PAUSE_REMINDER_LEAD_DAYS by the provider's clock (the
 * sandbox clock's for the sandbox, so a test moving it sees the reminder). A timer of its own, not
 * the reconciler's: the reminder's lateness is its interval, which the reconciler's says nothing of.
 */
@Injectable()
export class PauseReminders implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PauseReminders.name);
  private readonly passes: PeriodicPass;

  constructor(
    private readonly config: PaymentsConfig,
    private readonly lifecycle: OrderLifecycle,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {
    this.passes = new PeriodicPass(this.config.PAUSE_REMINDER_INTERVAL_S * 1000, () => this.run(), (err: Error) =>
      this.logger.warn({ err: redact(err.message) }, 'Pause reminder pass failed; the next one tries again'),
    );
  }

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.passes.stop();
  }

  /**
   * One pass, until a batch comes back short: first each pause begun or ended by now is applied to
   * its member's access (paused from the end of the paid period), then the reminders owed.
   * Resolves with how many reminders it owed.
   */
  async run(): Promise<number> {
    const now = await this.gateway.now();
    for (let turned = BATCH; turned === BATCH && !this.passes.stopped; ) turned = await this.lifecycle.pausedAccessDue(now, BATCH);
    const dueBy = new Date(now.getTime() + PAUSE_REMINDER_LEAD_DAYS * 86_400_000);
    let owed = 0;
    for (;;) {
      const batch = await this.lifecycle.pauseRemindersDue(dueBy, BATCH);
      owed += batch;
      if (batch < BATCH || this.passes.stopped) return owed;
    }
  }
}
