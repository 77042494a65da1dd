import { periodMonths } from '@contracts/plans';
import { addMonths } from '../../billing-calendar';
import type { SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';

/**
 * The end of a sandbox subscription's current period (a month, or a year for a yearly plan): it
 * started when the subscription was created and has been billed `renewals` times since (one
 * `invoice` object per period, as the clock bills them).
 */
export function currentPeriodEnd(subscription: Pick<SandboxObjectRow, 'created_at' | 'plan_id'>, renewals: number): Date {
  return addMonths(subscription.created_at, (renewals + 1) * periodMonths(subscription.plan_id));
}
