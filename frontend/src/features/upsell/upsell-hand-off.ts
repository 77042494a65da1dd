import type { PlanId } from '@contracts/plans';
import { checkoutHref, present } from '@/lib/funnel-links';

export interface UpsellVisitor {
  email: string;
  name: string;
  referral: string | null;
}

export function readUpsellVisitor(params: URLSearchParams): UpsellVisitor {
  return {
    email: params.get('email')?.trim() ?? '',
    name: params.get('name')?.trim() ?? '',
    referral: params.get('referral')?.trim() || null,
  };
}

/** Spec section 2, /upsell: plan, email and name always; referral only when present. */
export function upsellCheckoutHref(plan: PlanId, visitor: UpsellVisitor): string {
  return checkoutHref({ plan, email: visitor.email, name: visitor.name, referral: present(visitor.referral) });
}
