import { AffiliateConfig } from '@core/config/config-sections';
import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { normalizeEmail } from '@contracts/email';
import { toMinorUnits } from '@contracts/money';
import type { ConfirmSubscriptionResponse, CreateIntentResponse } from '@contracts/payments';
import { bumpOffered, CURRENCY, findPlan, Plan } from '@contracts/plans';
import { hashAccessToken } from '@core/invitations/access-token';
import { assertSamePlan, planByDisplayName, subscriptionPlanById } from './checkout-plans';
import type { CheckoutPartyDto } from './dto/checkout-party.dto';
import type { ConfirmSubscriptionDto, CreatePaymentIntentDto, CreateSetupIntentDto } from './dto/create-intent.dto';
import { CreatedIntent, GatewayOrder, PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { answerProviderErrors, PROVIDER_DOWN, type ProviderAnswers } from '../../common/provider-answers';
import { IntentRateLimiter } from './intent-rate-limiter';
import { isPaid, orderStatusOfSubscription } from '@core/orders/order-state';
import { gatewayOrderOf } from '@core/payments/order-reads';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { MEMBERSHIP_CLAIM_MINUTES, type NewOrder, OrderRepository, type OrderRow } from '@core/database/repositories/order.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { CouponCheckout } from './coupon-checkout';

/** What checkout knows about the request besides its body. */
export interface CheckoutClient {
  ip: string;
  /** Attribution cookies of this request (tid, ga_client_id, fbp, fbc) and the user agent. */
  attribution: Record<string, string>;
  /** SHA-256 of the browser's buyer key (buyer-key.ts); null for calls that create no order. */
  buyerKeyHash: string | null;
}

/** Creates orders and their provider intents, and turns a confirmed card into a subscription. */
@Injectable()
export class CheckoutService {
  private readonly logger = new Logger(CheckoutService.name);

  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly orders: OrderRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly limiter: IntentRateLimiter,
    private readonly config: AffiliateConfig,
    private readonly metrics: PaymentMetrics,
    private readonly coupons: CouponCheckout,
  ) {}

  async createSetupIntent(dto: CreateSetupIntentDto, client: CheckoutClient): Promise<CreateIntentResponse> {
    const plan = subscriptionPlanById(dto.planId);
    await this.refuseSecondMembership(normalizeEmail(dto.email), plan);
    return this.createIntent(plan, dto, dto.bump === true, client, 'setup_intent_id', (order) => this.gateway.createCardSetup(order));
  }

  createPaymentIntent(dto: CreatePaymentIntentDto, client: CheckoutClient): Promise<CreateIntentResponse> {
    const plan = planByDisplayName(dto.plan, dto.amount, 'one-time');
    return this.createIntent(plan, dto, dto.bump === true, client, 'payment_intent_id', (order) => this.gateway.createCharge(order));
  }

  async confirmSubscription(dto: ConfirmSubscriptionDto, client: CheckoutClient): Promise<ConfirmSubscriptionResponse> {
    await this.limiter.consumeConfirmation(client.ip, dto.setupIntentId);
    const order = await this.orders.findBy('setup_intent_id', dto.setupIntentId);
    if (!order) throw new NotFoundException('No checkout matches this setupIntentId. Please reload the page and try again.');
    if (normalizeEmail(dto.email) !== order.email_normalized)
      throw new BadRequestException('This card confirmation belongs to another checkout.');
    const plan = findPlan(order.plan_id);
    if (!plan) throw new BadRequestException('This checkout is for a plan no longer on sale. Please reload the page and try again.');
    assertSamePlan(plan, dto.plan, dto.amount);
    // A double click or a retry of a paid subscription answers with it at once; one still waiting
    // for its first payment asks the provider again, which answers with the same subscription and
    // the same pending authentication (every write carries the order's idempotency key).
    if (order.subscription_id && isPaid(order.status)) return { subscriptionId: order.subscription_id };
    // Two checkouts may have been opened side by side: the first to claim the membership goes
    // on, the other is refused before its card is charged.
    await this.claimMembership(order, plan);

    const discount = await this.coupons.discountOf(order, plan);
    const subscription = await answerProviderErrors(
      () => this.gateway.createSubscription({ ...gatewayOrderOf(order, plan), discount }, dto.setupIntentId),
      {
        ...this.answers('create-subscription', order.id),
        // Refused before anything was created. Any other failure keeps the claim (until it
        // lapses): the subscription may exist with its answer lost, and a retry finds it.
        onRefused: () => this.orders.releaseMembershipClaim(order.id),
      },
    );
    // The provider's first word on its state is stored with it: its created event then finds
    // nothing to change, unless the subscription has moved on since.
    await this.lifecycle.subscriptionCreated(
      order.id,
      {
        subscription_id: subscription.subscriptionId,
        customer_id: subscription.customerId,
        payment_method_id: subscription.paymentMethodId,
      },
      subscription.state === 'pending' ? null : subscription.state,
      orderStatusOfSubscription(subscription.state),
    );
    // A first payment declined charged nothing: another checkout may go ahead. One waiting for
    // the bank's answer keeps the claim, as the buyer may still complete it.
    if (subscription.state === 'incomplete' && !subscription.actionClientSecret) await this.orders.releaseMembershipClaim(order.id);
    return subscription.actionClientSecret
      ? { subscriptionId: subscription.subscriptionId, clientSecret: subscription.actionClientSecret }
      : { subscriptionId: subscription.subscriptionId };
  }

  private async createIntent(
    plan: Plan,
    party: CheckoutPartyDto,
    bumpTicked: boolean,
    client: CheckoutClient,
    idColumn: 'setup_intent_id' | 'payment_intent_id',
    create: (order: GatewayOrder) => Promise<CreatedIntent>,
  ): Promise<CreateIntentResponse> {
    const emailNormalized = normalizeEmail(party.email);
    await this.limiter.consume(client.ip, emailNormalized);
    const coupon = party.coupon?.trim() ? await this.coupons.price(party.coupon, plan) : null;
    // The add-on is priced from the catalogue, never from the browser; the order records that it was offered either way.
    const bump = bumpOffered(plan);
    if (bumpTicked && !bump) throw new BadRequestException(`${plan.name} has no add-on to add. Please reload the page and try again.`);
    const bumpCents = bumpTicked && bump ? toMinorUnits(bump.amount, CURRENCY) : null;
    const newOrder: NewOrder = {
      planId: plan.id,
      kind: plan.kind,
      amountCents: toMinorUnits(plan.amount, CURRENCY) + (bumpCents ?? 0),
      currency: CURRENCY.toLowerCase(),
      email: party.email.trim(),
      emailNormalized,
      name: party.name.trim(),
      source: party.source.trim(),
      referral: party.referral?.trim() || null,
      invitationTokenHash: party.blackcard_token ? hashAccessToken(party.blackcard_token) : null,
      requestAttribution: client.attribution,
      leadCreditDays: this.config.AFFILIATE_COOKIE_DAYS,
      provider: this.gateway.provider,
      buyerKeyHash: client.buyerKeyHash,
      livemode: this.gateway.livemode,
      instalments: plan.instalments ?? null,
      bumpPlanId: bump?.id ?? null,
      bumpAmountCents: bumpCents,
    };
    const order = coupon ? await this.coupons.createWithRedemption(newOrder, coupon) : await this.orders.create(newOrder);
    const discount = await this.coupons.discountOf(order, plan);
    const intent = await answerProviderErrors(
      () => create({ ...gatewayOrderOf(order, plan), discount }),
      this.answers(`create-${idColumn === 'setup_intent_id' ? 'setup' : 'payment'}-intent`, order.id),
    );
    await this.orders.setProviderIds(order.id, { [idColumn]: intent.intentId, customer_id: intent.customerId });
    this.metrics.intentCreated(idColumn === 'setup_intent_id' ? 'setup' : 'payment');
    return { clientSecret: intent.clientSecret };
  }

  /** A card the provider refuses is a 400; a provider not answering, a readable 503. */
  private answers(operation: string, orderId: string): ProviderAnswers {
    return { refused: 400, unavailable: { logger: this.logger, log: { orderId, operation }, message: PROVIDER_DOWN } };
  }

  /**
   * One membership per buyer and plan: paying again would charge twice for the same access. An
   * unpaid one counts: its subscription still exists and a new card revives it.
   */
  private async refuseSecondMembership(emailNormalized: string, plan: Plan): Promise<void> {
    const running = await this.orders.runningMembershipOf(emailNormalized, plan.id);
    if (running) throw alreadyMember(plan, running === 'unpaid');
  }

  /** The same rule at the charge, where two tabs' confirmations take turns (claimMembership). */
  private async claimMembership(order: OrderRow, plan: Plan): Promise<void> {
    const claim = await this.orders.claimMembership(order);
    if (claim === 'member' || claim === 'member-unpaid') throw alreadyMember(plan, claim === 'member-unpaid');
    if (claim === 'awaiting-bank') {
      throw new ConflictException(
        `A payment for a ${plan.name} membership with this email address is waiting for your bank's confirmation in another window, so nothing was charged here. Please finish it there.`,
      );
    }
    if (claim === 'under-way') {
      throw new ConflictException(
        `A payment for a ${plan.name} membership with this email address is already under way in another window, so nothing was charged here. Please finish it there, or try again in ${MEMBERSHIP_CLAIM_MINUTES} minutes.`,
      );
    }
  }
}

const alreadyMember = (plan: Plan, unpaid: boolean): ConflictException =>
  new ConflictException(
    unpaid
      ? `This email address already has a ${plan.name} membership whose payment failed, so nothing was charged. To restore it, please update your card on your account page (/account).`
      : `This email address already has an active ${plan.name} membership, so nothing was charged. To change or cancel it, please contact support.`,
  );
