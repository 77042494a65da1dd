import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { PaymentsConfig } from '@core/config/config-sections';
import { minorUnitsPerMajor } from '@contracts/money';
import type { VerificationResult } from '@contracts/payments';
import { PAYMENT_GATEWAY, PaymentGateway, PaymentObjectKind } from '@core/payments/payment-gateway';
import { isSettled, type OrderStatus, orderStatusOfCharge, orderStatusOfSubscription } from '@core/orders/order-state';
import { isPoolBusy, PoolBusyError, poolRefusalHere } from '@core/database/pool-admission';
import { OrderRepository, OrderRow } from '@core/database/repositories/order.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { verificationStatus } from './verification-status';

type Path = 'payment' | 'subscription';

/** The object each path verifies; an id the gateway does not recognise as one is never looked up. */
const KIND_OF: Readonly<Record<Path, PaymentObjectKind>> = { payment: 'charge', subscription: 'subscription' };

/**
 * The success page's verification. Answers from Postgres, which webhooks keep current; while an
 * order is unsettled it reads the provider at most once per VERIFY_REFRESH_MS per id (the order
 * row is the cross-instance claim) and concurrent polls in this process share that one read.
 */
@Injectable()
export class VerificationService {
  private readonly logger = new Logger(VerificationService.name);
  private readonly inFlight = new Map<string, Promise<OrderStatus | null>>();

  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly orders: OrderRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly config: PaymentsConfig,
  ) {}

  /**
   * `buyerKeyHash`: the hash of the buyer key the asking browser presented. Only the browser that
   * created the order learns its e-mail, name and referral; an id alone (in a shared link, a
   * referrer header, a log) tells anyone else the status and the amount.
   */
  async verify(path: Path, id: string, buyerKeyHash: string | null): Promise<VerificationResult> {
    const column = path === 'payment' ? 'payment_intent_id' : 'subscription_id';
    const valid = this.gateway.kindOfId(id) === KIND_OF[path];
    let order = valid ? await this.orders.findBy(column, id) : null;
    if (!order) throw new NotFoundException(`No ${path} found with this id.`);
    if (!isSettled(order.kind, order.status)) {
      // The status under the row lock after the read is all of the answer that can have changed;
      // without one (another poll or instance read the provider just now), the row is read again.
      const status = await this.refresh(path, order);
      order = status ? { ...order, status } : ((await this.orders.findBy(column, id)) ?? order);
    }
    return resultOf(order, buyerKeyHash !== null && order.buyer_key_hash !== null && safeEqual(buyerKeyHash, order.buyer_key_hash));
  }

  /** The order's status after this process's provider read (changed or not), or null when no read was made or it failed. */
  private refresh(path: Path, order: OrderRow): Promise<OrderStatus | null> {
    const running = this.inFlight.get(order.id);
    if (running) return running;
    const work = this.readProvider(path, order).finally(() => this.inFlight.delete(order.id));
    this.inFlight.set(order.id, work);
    return work;
  }

  /**
   * A failed provider read is logged and the answer comes from Postgres: a poll does not fail for
   * the provider. It does when the pool refused a connection: the row may predate a payment the
   * read would have found, and the success page takes any answer as final, so the poll answers
   * 'busy' (503, Retry-After), which the page retries, and the failed read leaves no claim.
   */
  private async readProvider(path: Path, order: OrderRow): Promise<OrderStatus | null> {
    try {
      // Read under the order's row lock, so a webhook's fresher read cannot be overwritten by this one.
      return await this.lifecycle.claimedProviderRead(order.id, this.config.VERIFY_REFRESH_MS, async () =>
        path === 'payment'
          ? orderStatusOfCharge(await this.gateway.readCharge(order.payment_intent_id as string))
          : orderStatusOfSubscription(await this.gateway.readSubscription(order.subscription_id as string)),
      );
    } catch (err) {
      if (isPoolBusy(err)) throw err;
      const refused = poolRefusalHere();
      if (refused) throw new PoolBusyError(refused);
      this.logger.warn(
        { orderId: order.id, err: (err as Error).message },
        'Provider read for verification failed; answering from Postgres',
      );
      return null;
    }
  }
}

function safeEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Plan and purchase event id are no one's personal data, and the success page needs them to render and to de-duplicate. */
function resultOf(order: OrderRow, toBuyer: boolean): VerificationResult {
  return {
    status: verificationStatus(order.kind, order.status),
    amount: order.amount_cents / minorUnitsPerMajor(order.currency),
    customer_email: toBuyer ? order.email : null,
    customer_name: toBuyer ? order.name : null,
    referral: toBuyer ? order.referral : null,
    plan: order.plan_id,
    purchase_event_id: order.purchase_event_id,
  };
}
