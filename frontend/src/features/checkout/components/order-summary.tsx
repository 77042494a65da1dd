import type { ReactNode } from 'react';
import type { CouponQuote } from '@contracts/coupons';
import { formatMoney, formatPrice, toMinorUnits } from '@contracts/money';
import { bumpOffered, CURRENCY, type Plan } from '@contracts/plans';
import { checkout as copy } from '@/content/checkout';

interface OrderSummaryProps {
  plan: Plan;
  email: string | null;
  name: string | null;
  /** An accepted coupon's quote: the discount and the total due today, as the server computed them. */
  discount: CouponQuote | null;
  /** The coupon field, under the total. */
  coupon: ReactNode;
  /** The add-on (order bump) when ticked: its price, added to the total. */
  bumpCents: number;
}

/** Spec section 2, /checkout: plan, price, what it unlocks and who is buying. */
export function OrderSummary({ plan, email, name, discount, coupon, bumpCents }: OrderSummaryProps) {
  const bump = bumpCents > 0 ? bumpOffered(plan) : undefined;
  const months = discount ? copy.coupon.months(discount.durationMonths) : null;
  const missing = !email || !name;
  return (
    <aside className="card checkout__summary" aria-labelledby="order-summary-heading" data-testid="order-summary">
      <h2 id="order-summary-heading">{copy.summary.heading}</h2>
      <dl className="checkout__lines">
        <div>
          <dt>{copy.summary.plan}</dt>
          <dd data-testid="summary-plan">{plan.name}</dd>
        </div>
        <div>
          <dt>{copy.summary.price}</dt>
          <dd data-testid="summary-price">{plan.displayText}</dd>
        </div>
        {discount ? (
          <div className="checkout__discount">
            <dt>{copy.coupon.discount(discount.code)}</dt>
            <dd data-testid="summary-discount">−{formatMoney(discount.discountCents, CURRENCY)}</dd>
          </div>
        ) : null}
        {bump ? (
          <div>
            <dt>{copy.bump.line}</dt>
            <dd data-testid="summary-bump">
              {bump.name} · {formatMoney(bumpCents, CURRENCY)}
            </dd>
          </div>
        ) : null}
        <div className="checkout__total">
          <dt>{copy.summary.total}</dt>
          <dd data-testid="summary-amount">
            {discount || bump
              ? formatMoney((discount?.totalCents ?? toMinorUnits(plan.amount, CURRENCY)) + bumpCents, CURRENCY)
              : formatPrice(plan.amount, CURRENCY)}
          </dd>
        </div>
      </dl>
      {months ? (
        <p className="checkout__muted" data-testid="summary-discount-months">
          {months}
        </p>
      ) : null}
      {coupon}
      <h3>{copy.summary.unlocksHeading}</h3>
      <ul className="check-list" data-testid="summary-unlocks">
        {copy.summary.unlocks(plan).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="checkout__secure">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm-1.2 14.2-3.5-3.5 1.4-1.4 2.1 2.1 4.9-4.9 1.4 1.4-6.3 6.3Z"
          />
        </svg>
        {copy.secureCheckout}
      </p>
      <dl className="checkout__customer" data-testid="customer">
        <div>
          <dt>{copy.customerEmail}</dt>
          <dd data-testid="customer-email">{email ?? copy.notProvided}</dd>
        </div>
        <div>
          <dt>{copy.customerName}</dt>
          <dd data-testid="customer-name">{name ?? copy.notProvided}</dd>
        </div>
      </dl>
      {missing ? (
        <p className="checkout__warning" role="note" data-testid="missing-warning">
          {copy.missingWarning}
        </p>
      ) : null}
    </aside>
  );
}

/**
 * The summary before the visitor is known (the prerendered page, until it hydrates): its headings
 * and the outline of its lines, the same height as the summary that replaces it.
 */
export function OrderSummaryOutline() {
  return (
    <aside className="card checkout__summary" aria-label={copy.summary.heading}>
      <h2>{copy.summary.heading}</h2>
      <dl className="checkout__lines">
        {[copy.summary.plan, copy.summary.price, copy.summary.total].map((label) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className="checkout__pending-value" />
          </div>
        ))}
      </dl>
      <p className="checkout__secure">{copy.secureCheckout}</p>
    </aside>
  );
}
