import { AppConfig } from '@core/config/app-config';
import { PoolBusyError, runWithAdmission } from '@core/database/pool-admission';
import type { OrderRepository, OrderRow } from '@core/database/repositories/order.repository';
import type { OrderLifecycle } from '@core/orders/order-lifecycle';
import type { PaymentGateway } from '@core/payments/payment-gateway';
import { VerificationService } from './verification.service';

/** An unpaid one-time order as the row holds it before any provider read. */
const ROW = {
  id: 'order-1',
  kind: 'one-time',
  status: 'requires_payment_method',
  amount_cents: 99700,
  currency: 'usd',
  plan_id: 'full-payment',
  payment_intent_id: 'pi_1',
  buyer_key_hash: null,
  purchase_event_id: 'evt_1',
} as unknown as OrderRow;

/** The service over a row that never changes and a provider read that fails with `failure`. */
function serviceWhoseReadFails(failure: Error, row: OrderRow = ROW): VerificationService {
  const orders = {
    findBy: () => Promise.resolve(row),
  } as unknown as OrderRepository;
  const lifecycle = { claimedProviderRead: () => Promise.reject(failure) } as unknown as OrderLifecycle;
  const gateway = { kindOfId: () => 'charge' } as unknown as PaymentGateway;
  return new VerificationService(gateway, orders, lifecycle, new AppConfig());
}

describe('VerificationService when the provider read fails', () => {
  it('answers from the row when the provider failed', async () => {
    const result = await serviceWhoseReadFails(new Error('Stripe is down')).verify('payment', 'pi_1', null);
    expect(result.status).toBe('requires_payment_method');
    expect(result.amount).toBe(997);
  });

  it("answers the amount in whole units of the order's currency: yen are not hundredths", async () => {
    const yen: OrderRow = { ...ROW, amount_cents: 9700, currency: 'jpy' };
    expect((await serviceWhoseReadFails(new Error('Stripe is down'), yen).verify('payment', 'pi_1', null)).amount).toBe(9700);
  });

  it('fails as busy when the pool refused the read a connection: a stale row must not be the answer', async () => {
    await expect(serviceWhoseReadFails(new PoolBusyError('pool_queue')).verify('payment', 'pi_1', null)).rejects.toMatchObject({
      name: 'PoolBusyError',
      reason: 'pool_queue',
    });
  });

  it('fails as busy when the refusal reached it rewrapped, as the request recorded it', async () => {
    const verifying = runWithAdmission({ shared: false, refused: 'pool_timeout' }, () =>
      serviceWhoseReadFails(new Error('The payment service is not answering')).verify('payment', 'pi_1', null),
    );
    await expect(verifying).rejects.toMatchObject({ name: 'PoolBusyError', reason: 'pool_timeout' });
  });
});
