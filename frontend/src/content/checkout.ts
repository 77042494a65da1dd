import { formatMoney, formatPrice } from '@contracts/money';
import { OFFERS, type Plan } from '@contracts/plans';
import { fill } from '@contracts/site/fill';
import copy from '@site/copy/checkout.json';

/**
 * All copy of /checkout (spec sections 2, 5 and 8), from the site folder's copy/checkout.json.
 * Amounts come from the plan catalogue.
 */
export const checkout = {
  ...copy,
  /** With a coupon or the add-on ticked, `chargedCents` is the amount (in the currency's minor units) the server charges today. */
  payLabel: (plan: Plan, currency: string, chargedCents?: number): string =>
    OFFERS.firstInstalmentButton(plan)
      ? fill(copy.payLabelInstalments, {
          instalments: plan.instalments ?? 1,
          amount: chargedCents === undefined ? formatPrice(plan.amount, currency) : formatMoney(chargedCents, currency),
        })
      : fill(copy.payLabel, { amount: chargedCents === undefined ? formatPrice(plan.amount, currency) : formatMoney(chargedCents, currency) }),
  summary: {
    ...copy.summary,
    /** Level Two's contents (spec section 1) for plan blackcard-vip; the membership's for the others. */
    unlocks: (plan: Plan): string[] => (plan.id === OFFERS.levelTwo?.id ? copy.summary.vipUnlocks : copy.summary.unlocks),
  },
  /** The coupon field of the Order Summary (issue 18); messages about a code come from the server. */
  coupon: {
    ...copy.coupon,
    discount: (code: string): string => fill(copy.coupon.discount, { code }),
    months: (months: number | null): string | null =>
      months === null ? null : months === 1 ? copy.coupon.firstMonth : fill(copy.coupon.firstMonths, { months }),
  },
};
