import { BadRequestException, ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeEmail } from '@contracts/email';
import { toMinorUnits } from '@contracts/money';
import type { OneClickOfferResponse, OneClickPurchaseResponse } from '@contracts/payments';
import { CURRENCY, isAddOnOnly, isPlanId, Plan, planOf } from '@contracts/plans';
import { AffiliateConfig, PaymentsConfig } from '@core/config/config-sections';
import { OrderRepository, OrderRow } from '@core/database/repositories/order.repository';
import { gatewayOrderOf } from '@core/payments/order-reads';
import { PAYMENT_GATEWAY, PaymentGateway, SavedCard } from '@core/payments/payment-gateway';
import type { CheckoutClient } from './checkout.service';
import type { OneClickPurchaseDto } from './dto/one-click.dto';
import { IntentRateLimiter } from './intent-rate-limiter';
import { answerProviderErrors, PROVIDER_DOWN, type ProviderAnswers } from '../../common/provider-answers';
import { PaymentMetrics } from '@core/metrics/payment-metrics';

const NO_OFFER: OneClickOfferResponse = { offer: null };
const EXPIRED = 'Your saved card can no longer be used from this page. Please enter your card details.';

/**
 * One-click upgrades: the browser that has just paid (bound by its buyer key, for
 * ONE_CLICK_WINDOW_MINUTES after the payment) buys a one-time plan with the card that payment
 * saved. One order per (earlier order, plan) and one charge per order (its idempotency key), so a
 * double click or a reload mid-payment charges once. The order is an order like any other: the
 * webhook or /success's verification marks it paid and its paid effects follow.
 */
@Injectable()
export class OneClickService {
  private readonly logger = new Logger(OneClickService.name);

  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly orders: OrderRepository,
    private readonly limiter: IntentRateLimiter,
    private readonly config: PaymentsConfig,
    private readonly affiliate: AffiliateConfig,
    private readonly metrics: PaymentMetrics,
  ) {}

  async offer(planId: string, email: string, buyerKeyHash: string | null): Promise<OneClickOfferResponse> {
    const plan = this.plan(planId);
    if (!plan || !buyerKeyHash) return NO_OFFER;
    const source = await this.sourceOf(buyerKeyHash, email, plan);
    if (!source) return NO_OFFER;
    const card = await this.savedCard(source).catch((err: Error) => {
      // No offer is a safe answer: the buyer enters a card as usual.
      this.logger.warn({ orderId: source.id, err: err.message }, 'Saved card not readable; no one-click offer');
      return null;
    });
    return card ? { offer: { planId: plan.id, amountCents: toMinorUnits(plan.amount, CURRENCY), last4: card.last4 } } : NO_OFFER;
  }

  async purchase(dto: OneClickPurchaseDto, client: CheckoutClient): Promise<OneClickPurchaseResponse> {
    const plan = this.plan(dto.planId);
    if (!plan) throw new BadRequestException('One-click purchases are for one-time plans: please enter your card details.');
    const source = client.buyerKeyHash ? await this.sourceOf(client.buyerKeyHash, dto.email, plan) : null;
    if (!source) throw new ConflictException(EXPIRED);
    const emailNormalized = normalizeEmail(dto.email);
    await this.limiter.consume(client.ip, emailNormalized);
    const card = await answerProviderErrors(() => this.savedCard(source), this.answers('read-saved-card', source.id));
    if (!card) throw new ConflictException(EXPIRED);
    const order = await this.orders.create({
      planId: plan.id,
      kind: plan.kind,
      amountCents: toMinorUnits(plan.amount, CURRENCY),
      currency: CURRENCY.toLowerCase(),
      email: dto.email.trim(),
      emailNormalized,
      name: dto.name.trim(),
      source: dto.source.trim(),
      referral: dto.referral?.trim() || source.referral,
      invitationTokenHash: null,
      requestAttribution: client.attribution,
      leadCreditDays: this.affiliate.AFFILIATE_COOKIE_DAYS,
      provider: this.gateway.provider,
      buyerKeyHash: client.buyerKeyHash,
      livemode: this.gateway.livemode,
      instalments: plan.instalments ?? null,
      oneClickSourceId: source.id,
    });
    const charge = await answerProviderErrors(
      () => this.gateway.chargeSavedCard(gatewayOrderOf({ ...order, customer_id: card.customerId }, plan), card),
      this.answers('one-click-charge', order.id),
    );
    this.metrics.intentCreated('one_click');
    await this.orders.setProviderIds(order.id, {
      payment_intent_id: charge.intentId,
      customer_id: card.customerId,
      payment_method_id: card.paymentMethodId,
    });
    const status =
      charge.state === 'succeeded' || charge.state === 'processing' || charge.state === 'requires_action' ? charge.state : 'failed';
    this.logger.log({ orderId: order.id, sourceOrderId: source.id, planId: plan.id, status }, 'One-click purchase');
    return {
      paymentIntentId: charge.intentId,
      status,
      clientSecret: charge.clientSecret,
      message: status === 'failed' ? (charge.declineMessage ?? 'Your card was declined.') : null,
    };
  }

  /** A card the provider refuses is a 409; a provider not answering, a readable 503. */
  private answers(operation: string, orderId: string): ProviderAnswers {
    return { refused: 409, unavailable: { logger: this.logger, log: { orderId, operation }, message: PROVIDER_DOWN } };
  }

  /**
   * One-time plans only: a subscription needs its own card confirmation (and its mandate); the
   * checkout's add-on is sold only ticked onto another plan, never alone.
   */
  private plan(planId: string): Plan | null {
    if (this.config.ONE_CLICK_WINDOW_MINUTES === 0 || !isPlanId(planId)) return null;
    const plan = planOf(planId);
    return plan.kind === 'one-time' && !isAddOnOnly(plan) ? plan : null;
  }

  /**
   * The order whose card the browser entered, paid within the window: the browser's most recent
   * paid order, or the order a one-click order was paid through. Always that first order, so a
   * plan bought in one click and asked for again (a reload) finds the same one-click order.
   */
  private async sourceOf(buyerKeyHash: string, email: string, plan: Plan): Promise<OrderRow | null> {
    const recent = await this.orders.findRecentPaidForBuyer(
      buyerKeyHash,
      this.gateway.provider,
      this.config.ONE_CLICK_WINDOW_MINUTES * 60_000,
    );
    const source = recent?.one_click_source_id ? await this.orders.findById(recent.one_click_source_id) : recent;
    if (!source?.paid_at || source.email_normalized !== normalizeEmail(email)) return null;
    // The plan the card was entered for is bought already.
    return source.plan_id === plan.id ? null : source;
  }

  private savedCard(source: OrderRow): Promise<SavedCard | null> {
    return this.gateway.savedCardOf({
      id: source.id,
      customerId: source.customer_id,
      chargeId: source.payment_intent_id,
      subscriptionId: source.subscription_id,
      paymentMethodId: source.payment_method_id,
    });
  }
}
