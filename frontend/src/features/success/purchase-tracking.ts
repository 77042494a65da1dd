import { CURRENCY, type Plan } from '@contracts/plans';
import { track } from '@/lib/analytics';
import { sessionStore } from '@/lib/storage';

const TRACKED_PREFIX = 'purchase_tracked:';

/**
 * Sends Purchase once per payment id, also across re-renders and reloads of the success page.
 * The event id is the one the server's Purchase carries, so the ad platforms count one sale.
 */
export function trackPurchaseOnce(transactionId: string, plan: Plan, value: number, eventId: string): void {
  const key = `${TRACKED_PREFIX}${transactionId}`;
  if (sessionStore.get(key)) return;
  sessionStore.set(key, '1');
  track({ name: 'Purchase', params: { plan: plan.name, value, currency: CURRENCY, transaction_id: transactionId }, eventId });
}
