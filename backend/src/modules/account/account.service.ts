import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AccountMembership, AccountResponse, BillingPortalResponse, CardUpdateResponse, MembershipState } from '@contracts/account';
import type { CancellationAnswer, PauseRequest, SaveOfferDiscount, SaveOfferRequest } from '@contracts/cancellation';
import { normalizeEmail } from '@contracts/email';
import { JOBS } from '@contracts/jobs';
import { CURRENCY, resolvePlan } from '@contracts/plans';
import { ROUTES } from '@contracts/routes';
import { AccessConfig, ServerConfig } from '@core/config/config-sections';
import { AccountAccessRepository } from '@core/database/repositories/account-access.repository';
import { CancellationFeedbackRepository } from '@core/database/repositories/cancellation-feedback.repository';
import { CouponRepository, type CouponRow } from '@core/database/repositories/coupon.repository';
import { OrderRepository, type MembershipRow, type OrderRow } from '@core/database/repositories/order.repository';
import { type CancellationSurvey, OrderLifecycle } from '@core/orders/order-lifecycle';
import { renewalAfter } from '@core/payments/billing-calendar';
import { accountLinkRequestContext, hashAccessToken, isWellFormedAccessToken, sealAccessToken } from '@core/invitations/access-token';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { answerProviderErrors } from '../../common/provider-answers';
import { owe } from '@core/queue/owe';
import type { AccountPrincipal } from './account-session.service';

const INVALID_LINK = 'This sign-in link has expired or was already used. Please ask for a new one below.';
const NOT_YOURS = 'No membership of yours has this id.';

const dateWords = (date: Date): string => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

/** Where a paid order stands for its buyer, and the words the page shows for it. */
export function membershipStateOf(
  row: Pick<MembershipRow, 'kind' | 'status' | 'cancel_at_period_end' | 'current_period_end'> & Partial<Pick<MembershipRow, 'paused_until'>>,
  now: Date = new Date(),
): {
  state: MembershipState;
  statusText: string;
} {
  if (row.kind === 'one-time') return row.status === 'succeeded' ? { state: 'paid', statusText: 'Paid in full' } : pending(row.status);
  if (row.status === 'canceled') return { state: 'canceled', statusText: 'Canceled' };
  if (row.status === 'past_due') return { state: 'past_due', statusText: 'Past due' };
  // Retries over and access ended until paid: shown past due, so the buyer can update the card.
  if (row.status === 'unpaid') return { state: 'past_due', statusText: 'Unpaid' };
  if (row.status !== 'active') return pending(row.status);
  if (row.cancel_at_period_end) {
    const end = row.current_period_end ? ` on ${dateWords(new Date(row.current_period_end))}` : ' at the end of the period';
    return { state: 'canceling', statusText: `Canceling${end}` };
  }
  if (row.paused_until && new Date(row.paused_until) > now) return { state: 'paused', statusText: `Paused until ${dateWords(new Date(row.paused_until))}` };
  return { state: 'active', statusText: 'Active' };
}

/** A pause ends an hour before the renewal it resumes with, so the provider has lifted it when that renewal is charged. */
const RESUME_AHEAD_MS = 3_600_000;

const NO_OFFER = 'This offer is not available for this membership any more.';

/** The survey's answer as stored: the free text only with reason 'other', and never blank. */
function surveyOf(answer: CancellationAnswer): CancellationSurvey {
  const detail = answer.reason === 'other' ? answer.detail?.trim() || null : null;
  return { reason: answer.reason ?? null, detail };
}

function pending(status: string): { state: MembershipState; statusText: string } {
  return status === 'canceled' ? { state: 'canceled', statusText: 'Canceled' } : { state: 'pending', statusText: 'Payment pending' };
}

/**
 * The buyer's self-service account, without passwords: a sign-in link e-mailed to an address
 * that has ordered, exchanged once for a short session; the memberships and payments of that
 * address; cancel at the period's end, resume, and a new card, through the payment gateway.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccountAccessRepository,
    private readonly orders: OrderRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly config: AccessConfig,
    private readonly server: ServerConfig,
    private readonly coupons: CouponRepository,
    private readonly feedback: CancellationFeedbackRepository,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  /**
   * Owes the sign-in link job for any address: the worker decides whether the address gets a
   * link. The same one insert for a buyer and a stranger, so neither the answer nor its timing
   * tells who has ordered, and no token exists for a stranger.
   */
  async requestLink(email: string): Promise<void> {
    const requestId = randomUUID();
    const sealedEmail = sealAccessToken(normalizeEmail(email), this.config.INVITATION_TOKEN_KEY_BYTES, accountLinkRequestContext(requestId));
    await owe(this.dataSource, [{ name: JOBS.accountLinkEmail, data: { requestId, sealedEmail } }]);
  }

  /** The address of a live, unused link token, which is used up now; 400 for anything else. */
  async consumeLink(token: string): Promise<string> {
    const emailNormalized = isWellFormedAccessToken(token) ? await this.access.consumeLinkToken(hashAccessToken(token)) : null;
    if (!emailNormalized) throw new BadRequestException(INVALID_LINK);
    return emailNormalized;
  }

  async overview(account: AccountPrincipal): Promise<AccountResponse> {
    const rows = await this.orders.membershipsOf(account.emailNormalized);
    const memberships = await this.memberships(account, rows);
    return {
      csrfToken: account.csrfToken,
      expiresAt: account.expiresAt.toISOString(),
      provider: this.gateway.provider,
      memberships,
    };
  }

  /** 'Resume membership': the cancellation at the period's end is taken back. */
  async resume(account: AccountPrincipal, orderId: string): Promise<AccountMembership> {
    const order = await this.runningSubscriptionOf(account, orderId);
    const terms = await this.gatewayCall(() => this.gateway.setCancelAtPeriodEnd(order.id, order.subscription_id as string, false, randomUUID()));
    // In a transaction: the buyer's membership moves with the order (active again).
    await this.lifecycle.termsLearned(order.id, terms);
    return this.membershipOf(account, order.id);
  }

  /**
   * 'No thanks, cancel' (or cancelling without answering): the membership ends with its period,
   * and the answer, if any, is stored with that outcome in the same transaction.
   */
  async cancel(account: AccountPrincipal, answer: CancellationAnswer): Promise<AccountMembership> {
    const order = await this.runningSubscriptionOf(account, answer.orderId);
    const terms = await this.gatewayCall(() => this.gateway.setCancelAtPeriodEnd(order.id, order.subscription_id as string, true, randomUUID()));
    // The buyer's membership moves with the order (canceling), and the answer is kept.
    await this.lifecycle.cancellationAnswered(order.id, surveyOf(answer), { outcome: 'canceled', terms });
    return this.membershipOf(account, order.id);
  }

  /**
   * The pause offer taken: the provider charges nothing for the renewals due in the next `months`
   * months after the paid period and charges again by itself after them (an hour before the
   * renewal that resumes it, so that renewal is charged).
   */
  async pause(account: AccountPrincipal, request: PauseRequest): Promise<AccountMembership> {
    const order = await this.runningSubscriptionOf(account, request.orderId);
    if (order.status !== 'active' || order.cancel_at_period_end || (order.paused_until && order.paused_until > (await this.gateway.now()))) {
      throw new ConflictException(NO_OFFER);
    }
    const subscriptionId = order.subscription_id as string;
    const terms = await this.gatewayCall(() => this.gateway.readSubscriptionTerms(subscriptionId));
    const periodEnd = terms.currentPeriodEnd ?? order.current_period_end;
    if (!periodEnd) throw new ConflictException(NO_OFFER);
    const renewal = renewalAfter(terms.billingCycleAnchor ?? new Date(periodEnd), new Date(periodEnd), request.months);
    const resumesAt = new Date(renewal.getTime() - RESUME_AHEAD_MS);
    await this.gatewayCall(() => this.gateway.pauseCollection(order.id, subscriptionId, resumesAt, randomUUID()));
    await this.lifecycle.cancellationAnswered(order.id, surveyOf(request), {
      outcome: 'paused',
      months: request.months,
      pausedFrom: new Date(periodEnd),
      resumesAt,
    });
    return this.membershipOf(account, order.id);
  }

  /** The save offer taken: the admin's save-offer coupon comes off the next renewal, once per member. */
  async takeSaveOffer(account: AccountPrincipal, request: SaveOfferRequest): Promise<AccountMembership> {
    const order = await this.runningSubscriptionOf(account, request.orderId);
    const coupon = order.status === 'active' && !order.cancel_at_period_end ? await this.saveOfferFor(account, order.plan_id) : null;
    if (!coupon) throw new ConflictException(NO_OFFER);
    const discount = { couponId: coupon.id, code: coupon.code, percentOff: coupon.percent_off, amountOffCents: coupon.amount_off_cents };
    await this.gatewayCall(() => this.gateway.discountNextRenewal(order.id, order.subscription_id as string, discount, randomUUID()));
    await this.lifecycle.cancellationAnswered(order.id, surveyOf(request), { outcome: 'discounted', couponId: coupon.id });
    return this.membershipOf(account, order.id);
  }

  async billingPortal(account: AccountPrincipal, orderId: string): Promise<BillingPortalResponse> {
    const order = await this.subscriptionOf(account, orderId);
    if (!order.customer_id) throw new ConflictException('This membership has no billing details to manage.');
    const returnUrl = new URL(ROUTES.account, this.server.PUBLIC_URL).toString();
    return this.gatewayCall(() => this.gateway.openBillingPortal(order.customer_id as string, returnUrl));
  }

  async startCardUpdate(account: AccountPrincipal, orderId: string): Promise<CardUpdateResponse> {
    const order = await this.subscriptionOf(account, orderId);
    if (!order.customer_id) throw new ConflictException('This membership has no billing details to update.');
    const created = await this.gatewayCall(() => this.gateway.createCardUpdate(order.id, order.customer_id as string, randomUUID()));
    return { setupIntentId: created.setupId, clientSecret: created.clientSecret };
  }

  async applyCardUpdate(account: AccountPrincipal, orderId: string, setupIntentId: string): Promise<AccountMembership> {
    const order = await this.subscriptionOf(account, orderId);
    await this.gatewayCall(() => this.gateway.applyCardUpdate(order.id, order.subscription_id as string, setupIntentId));
    return this.membershipOf(account, order.id);
  }

  private async membershipOf(account: AccountPrincipal, orderId: string): Promise<AccountMembership> {
    const row = (await this.orders.membershipsOf(account.emailNormalized)).find((candidate) => candidate.id === orderId);
    if (!row) throw new NotFoundException(NOT_YOURS);
    const [membership] = await this.memberships(account, [row]);
    return membership;
  }

  /** The rows as the page shows them, in the provider's time (the sandbox clock's, for a pause that ended). */
  private async memberships(account: AccountPrincipal, rows: MembershipRow[]): Promise<AccountMembership[]> {
    if (rows.length === 0) return [];
    const now = await this.gateway.now();
    const offers = new Map<string, SaveOfferDiscount | null>();
    // Made once per member, whatever the plan: read once for all the rows.
    const taken = await this.feedback.discountTaken(account.emailNormalized);
    for (const row of rows) {
      if (taken || row.kind !== 'subscription' || offers.has(row.plan_id)) continue;
      const coupon = await this.coupons.findSaveOffer(row.plan_id);
      offers.set(row.plan_id, coupon && { percentOff: coupon.percent_off, amountOffCents: coupon.amount_off_cents, currency: CURRENCY.toLowerCase() });
    }
    return rows.map((row) => this.membership(row, now, offers.get(row.plan_id) ?? null));
  }

  /** The save-offer coupon for this plan, unless the member has had the save offer already (it is made once per member). */
  private async saveOfferFor(account: AccountPrincipal, planId: string): Promise<CouponRow | null> {
    const coupon = await this.coupons.findSaveOffer(planId);
    if (!coupon || (await this.feedback.discountTaken(account.emailNormalized))) return null;
    return coupon;
  }

  /** A subscription of the buyer's still running (active or past due). */
  private async runningSubscriptionOf(account: AccountPrincipal, orderId: string): Promise<OrderRow> {
    const order = await this.subscriptionOf(account, orderId);
    if (order.status !== 'active' && order.status !== 'past_due') throw new ConflictException('This membership is not running.');
    return order;
  }

  /** A paid subscription order of the signed-in buyer; 404 for anyone else's order (never telling which). */
  private async subscriptionOf(account: AccountPrincipal, orderId: string): Promise<OrderRow> {
    const order = await this.orders.findPaidOf(orderId, account.emailNormalized);
    if (!order) throw new NotFoundException(NOT_YOURS);
    if (order.kind !== 'subscription' || !order.subscription_id) throw new ConflictException('This membership is not a subscription.');
    return order;
  }

  /** A refusal the buyer can act on becomes a 409 with the provider's reason; anything else stays a 5xx. */
  private gatewayCall<T>(call: () => Promise<T>): Promise<T> {
    return answerProviderErrors(call, { refused: 409 });
  }

  private membership(row: MembershipRow, now: Date, discount: SaveOfferDiscount | null): AccountMembership {
    const plan = resolvePlan(row.plan_id);
    const { state, statusText } = membershipStateOf(row, now);
    const running = state === 'active' || state === 'paused' || state === 'past_due' || state === 'canceling';
    const periodEnd = row.current_period_end ? new Date(row.current_period_end) : null;
    return {
      orderId: row.id,
      planName: plan.name,
      displayText: plan.displayText,
      state,
      statusText,
      currentPeriodEnd: row.kind === 'subscription' && periodEnd ? periodEnd.toISOString() : null,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      canCancel: row.kind === 'subscription' && (state === 'active' || state === 'paused' || state === 'past_due'),
      canResume: state === 'canceling' && (periodEnd === null || periodEnd.getTime() > Date.now()),
      canUpdateCard: row.kind === 'subscription' && running && row.customer_id !== null,
      pausedUntil: state === 'paused' && row.paused_until ? new Date(row.paused_until).toISOString() : null,
      offers: { pause: state === 'active', discount: state === 'active' ? discount : null },
      payments: row.payments.map((payment) => ({
        sequence: payment.sequence,
        amountCents: payment.amount_cents,
        currency: payment.currency,
        paidAt: new Date(payment.paid_at).toISOString(),
      })),
    };
  }
}
