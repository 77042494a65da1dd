import { Injectable, Logger } from '@nestjs/common';
import { OrderRepository, type OrderRow } from '@core/database/repositories/order.repository';
import { PaymentRepository, type PaymentRow } from '@core/database/repositories/payment.repository';
import {
  JOBS,
  ORDER_PAID_EFFECTS,
  OrderPaidEffect,
  OrderPaidPayload,
  PaymentPaidPayload,
  SIDE_EFFECTS,
  SideEffectKind,
} from '@contracts/jobs';
import { findPlan } from '@contracts/plans';
import { AnalyticsConfig, ServerConfig } from '@core/config/config-sections';
import { BATCH_MAX, BOOKKEEPING_LINGER_MS, Coalescer } from '../jobs/coalescer';
import { OnJob } from '../jobs/on-job.decorator';
import { AffiliateClient, AffiliateSale } from '../clients/affiliate.client';
import { Ga4MeasurementClient, type PurchaseAddOn } from '../clients/ga4-measurement.client';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { MetaConversionsClient } from '../clients/meta-conversions.client';
import { buildReceipt } from '../messages/receipt-email.message';
import { ProviderAnswer, ProviderCallLedger } from '../ledger/provider-call-ledger';

export type EffectStatus =
  'sent' | 'skipped: not configured' | 'skipped: no referral' | 'skipped: test order' | 'skipped: first payment only' | `failed: ${string}`;

/** One paid charge as its effects see it: the order's first payment, or a later one (`payments` row). */
interface Charge {
  /** The ledger's subject: the order id for the first payment, the payment id for a later one. */
  subjectId: string;
  amountCents: number;
  paidAt: Date;
  /** The provider's id of the charge: the sale's event id and GA4's transaction id. */
  paymentId: string;
  /** Meta's event id: the browser's Purchase shares the first one's. */
  purchaseEventId: string;
  /** 1 for the first payment. */
  number: number;
}

/** FirstPromoter tracking ids are long generated ids; promoter referral ids are short codes (as at opt-in). */
const TRACKING_ID_MIN_LENGTH = 21;

/**
 * The side effects of a paid order: the affiliate sale, the server-side Purchase to Meta and to
 * GA4, and the receipt e-mail. Each runs through the side-effect ledger under its own key
 * (`<kind>:<order id>`), so a retried job, a replayed webhook or a reloaded success page never
 * repeats one that happened. The four run side by side: one integration being down does not hold
 * back the others, and the job's retry re-runs only what is unfinished (finished keys replay
 * from the ledger without a call). What became of each is kept in `orders.paid_effects`.
 *
 * A test order (the sandbox, or Stripe's test mode: `orders.livemode` false) is no sale: it never
 * reaches the affiliate service or GA4, and reaches Meta only as a test event (Events Manager's
 * Test Events, with META_TEST_EVENT_CODE); its buyer still gets the receipt.
 */
@Injectable()
export class OrderPaidHandler {
  private readonly logger = new Logger(OrderPaidHandler.name);
  /** Orders paid close together share the statement that records their effects' outcomes. */
  private readonly paidEffects = new Coalescer<{ orderId: string; effects: Record<string, string> }, void>(
    async (updates) => {
      await this.orders.recordPaidEffects(updates);
      return updates.map(() => undefined);
    },
    { max: BATCH_MAX, keyOf: (update) => update.orderId, lingerMs: BOOKKEEPING_LINGER_MS },
  );

  constructor(
    private readonly orders: OrderRepository,
    private readonly payments: PaymentRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly config: AnalyticsConfig,
    private readonly server: ServerConfig,
    private readonly affiliate: AffiliateClient,
    private readonly meta: MetaConversionsClient,
    private readonly ga4: Ga4MeasurementClient,
    private readonly mailer: SmtpMailer,
  ) {}

  @OnJob(JOBS.orderPaid)
  async settle({ orderId }: OrderPaidPayload): Promise<string> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    // paid_at is set by OrderLifecycle from a provider read or webhook, in the transaction that owed this job.
    if (!order.paid_at) return 'skipped: not paid';

    const charge: Charge = {
      subjectId: order.id,
      amountCents: order.amount_cents,
      paidAt: order.paid_at,
      paymentId: paymentIdOf(order),
      purchaseEventId: order.purchase_event_id,
      number: 1,
    };
    const summary = await this.settleCharge(order, charge, { orderId }, (effects) => this.paidEffects.run({ orderId: order.id, effects }));
    return summary.join(' ');
  }

  /**
   * A later paid charge of an order (a renewal or an instalment): its own receipt and affiliate
   * sale (recurring commission), keyed by the payment; the server-side Purchase only with
   * PURCHASE_EVENT_ON=every. What became of each is kept in `payments.paid_effects`.
   */
  @OnJob(JOBS.paymentPaid)
  async settlePayment({ paymentId }: PaymentPaidPayload): Promise<string> {
    const payment: PaymentRow | null = await this.payments.findPayment(paymentId);
    if (!payment) return 'skipped: payment not found';
    const order = await this.orders.findById(payment.order_id);
    if (!order) return 'skipped: order not found';
    const charge: Charge = {
      subjectId: payment.id,
      amountCents: payment.amount_cents,
      paidAt: payment.paid_at,
      paymentId: payment.provider_payment_id,
      purchaseEventId: `${order.purchase_event_id}:${payment.sequence}`,
      number: payment.sequence,
    };
    const summary = await this.settleCharge(order, charge, { orderId: order.id, paymentId, sequence: payment.sequence }, (effects) =>
      this.payments.recordPaymentEffects(payment.id, effects),
    );
    return summary.join(' ');
  }

  /**
   * Runs a charge's effects side by side, records what became of those that ran (one statement
   * for all of them), and throws (so the job retries) if one failed to run.
   */
  private async settleCharge(
    order: OrderRow,
    charge: Charge,
    logContext: Record<string, unknown>,
    record: (effects: Partial<Record<SideEffectKind, EffectStatus>>) => Promise<void>,
  ): Promise<string[]> {
    const purchase = charge.number === 1 || this.config.PURCHASE_EVENT_ON === 'every';
    // Every kind the reconciler checks the ledger for has its call here (the type says so).
    const calls: Record<OrderPaidEffect, () => Promise<EffectStatus>> = {
      [SIDE_EFFECTS.affiliateSale]: () => this.affiliateSale(order, charge),
      [SIDE_EFFECTS.metaPurchase]: () => (purchase ? this.metaPurchase(order, charge) : Promise.resolve('skipped: first payment only')),
      [SIDE_EFFECTS.ga4Purchase]: () => (purchase ? this.ga4Purchase(order, charge) : Promise.resolve('skipped: first payment only')),
      [SIDE_EFFECTS.receiptEmail]: () => this.receipt(order, charge),
    };
    const effects = ORDER_PAID_EFFECTS.map((kind) => [kind, calls[kind]] as const);
    const settled = await Promise.allSettled(effects.map(([, run]) => run()));
    const recorded: Partial<Record<SideEffectKind, EffectStatus>> = {};
    effects.forEach(([kind], i) => {
      const result = settled[i];
      if (result.status === 'fulfilled') recorded[kind] = result.value;
    });
    if (Object.keys(recorded).length) await record(recorded);
    const summary = effects.map(([kind], i) => {
      const result = settled[i];
      return `${kind}=${result.status === 'fulfilled' ? result.value : 'retrying'}`;
    });
    this.logger.log({ ...logContext, effects: summary }, 'Paid side effects');
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Thrown so the job retries with backoff; the effects that finished are not called again.
    if (failure) throw failure.reason;
    return summary;
  }

  private async affiliateSale(order: OrderRow, charge: Charge): Promise<EffectStatus> {
    if (!order.livemode) return 'skipped: test order';
    const sale = this.saleFor(order, charge);
    if (!sale.tid && !sale.refId) return 'skipped: no referral';
    if (!this.affiliate.configured) return 'skipped: not configured';
    return this.run(SIDE_EFFECTS.affiliateSale, charge.subjectId, (key) => this.affiliate.trackSale(sale, key));
  }

  private async metaPurchase(order: OrderRow, charge: Charge): Promise<EffectStatus> {
    if (!this.meta.configured) return 'skipped: not configured';
    // Meta's own test mode: a test order's Purchase goes to Test Events only, never to the data set.
    const testEventCode = order.livemode ? undefined : this.config.META_TEST_EVENT_CODE;
    if (!order.livemode && !testEventCode) return 'skipped: test order';
    const a = order.attribution ?? {};
    return this.run(SIDE_EFFECTS.metaPurchase, charge.subjectId, () =>
      this.meta.sendPurchase({
        eventId: charge.purchaseEventId,
        eventTime: charge.paidAt,
        email: order.email,
        amountCents: charge.amountCents,
        currency: order.currency.toUpperCase(),
        plan: planName(order.plan_id),
        planId: order.plan_id,
        addOn: addOnOf(order, charge),
        eventSourceUrl: this.pageUrl(a),
        fbp: a.fbp,
        fbc: a.fbc,
        clientUserAgent: a.user_agent,
        testEventCode,
      }),
    );
  }

  private async ga4Purchase(order: OrderRow, charge: Charge): Promise<EffectStatus> {
    if (!this.ga4.configured) return 'skipped: not configured';
    // The Measurement Protocol has no test mode that is not also a live property.
    if (!order.livemode) return 'skipped: test order';
    const a = order.attribution ?? {};
    return this.run(SIDE_EFFECTS.ga4Purchase, charge.subjectId, () =>
      this.ga4.sendPurchase({
        // The id the browser's Purchase sends as transaction_id, so GA4 counts the two as one purchase.
        transactionId: charge.paymentId,
        clientId: a.ga_client_id,
        sessionId: a.ga_session_id,
        amountCents: charge.amountCents,
        currency: order.currency.toUpperCase(),
        planId: order.plan_id,
        planName: planName(order.plan_id),
        addOn: addOnOf(order, charge),
        eventTime: charge.paidAt,
      }),
    );
  }

  private async receipt(order: OrderRow, charge: Charge): Promise<EffectStatus> {
    if (!this.mailer.configured) return 'skipped: not configured';
    const mail = buildReceipt(
      {
        orderId: order.id,
        planId: order.plan_id,
        amountCents: charge.amountCents,
        currency: order.currency.toUpperCase(),
        paidAt: charge.paidAt,
        customerName: order.name,
        paymentNumber: charge.number,
        paymentCount: order.instalments ?? undefined,
        ...(charge.number === 1 && order.bump_plan_id && order.bump_amount_cents
          ? { addOn: { planId: order.bump_plan_id, amountCents: order.bump_amount_cents } }
          : {}),
      },
      { accountUrl: new URL('/account', this.server.PUBLIC_URL).toString() },
    );
    return this.run(SIDE_EFFECTS.receiptEmail, charge.subjectId, (key) => this.mailer.send({ to: order.email, ...mail, messageId: key }));
  }

  private async run(kind: SideEffectKind, orderId: string, call: (key: string) => Promise<ProviderAnswer>): Promise<EffectStatus> {
    const effect = await this.ledger.run(kind, orderId, call);
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }

  /** The sale of this payment, attributed like the opt-in: the tracking cookie, else the referral as a tid or a promoter's ref id. */
  private saleFor(order: OrderRow, charge: Charge): AffiliateSale {
    const referral = order.referral ?? undefined;
    const referralIsTid = referral !== undefined && referral.length >= TRACKING_ID_MIN_LENGTH;
    return {
      email: order.email,
      uid: order.lead_id ?? undefined,
      amountCents: charge.amountCents,
      eventId: charge.paymentId,
      plan: order.plan_id,
      tid: order.attribution?.tid ?? (referralIsTid ? referral : undefined),
      refId: referral !== undefined && !referralIsTid ? referral : undefined,
    };
  }

  /** The page the buyer came through, as stored with the lead or order. */
  private pageUrl(attribution: Record<string, string>): string | undefined {
    if (attribution.page_url) return attribution.page_url;
    if (!attribution.landing_path?.startsWith('/')) return undefined;
    return new URL(attribution.landing_path, this.server.PUBLIC_URL).toString();
  }
}

/** The provider's id of the payment: what the success page verifies and tracks as transaction_id. */
function paymentIdOf(order: OrderRow): string {
  return order.payment_intent_id ?? order.subscription_id ?? order.id;
}

/** The add-on (order bump) the first payment included: the purchase events list it as a second item. */
function addOnOf(order: OrderRow, charge: Charge): PurchaseAddOn | undefined {
  if (charge.number !== 1 || !order.bump_plan_id || !order.bump_amount_cents) return undefined;
  return { id: order.bump_plan_id, name: planName(order.bump_plan_id), amountCents: order.bump_amount_cents };
}

function planName(planId: string): string {
  return findPlan(planId)?.name ?? planId;
}
