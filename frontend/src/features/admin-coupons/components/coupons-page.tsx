import type { AdminCoupon, CouponKind } from '@contracts/coupons';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, findPlan, OFFERS, PLANS, type PlanId } from '@contracts/plans';
import { useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { adminCoupons as copy } from '@/content/admin-coupons';
import { pages } from '@/content/pages';
import { ApiError } from '@/lib/api-client';
import { useCreateCoupon } from '../api/create-coupon';
import { useDeactivateCoupon } from '../api/deactivate-coupon';
import { useCoupons } from '../api/get-coupons';
import { CancellationsSection } from './cancellations-section';
import '../admin-coupons.css';

/** The plans a coupon may be for (instalment plans take none; the server checks it too). */
const COUPON_PLANS = PLANS.filter((plan) => plan.instalments === undefined);

const errorText = (error: unknown): string => (error instanceof ApiError && error.serverMessage ? error.serverMessage : copy.failed);
const optionalInt = (value: string): number | null => (value.trim() ? Number(value) : null);

function discountOf(coupon: AdminCoupon): string {
  return coupon.kind === 'percent' ? `${coupon.percentOff}%` : formatMoney(coupon.amountOffCents ?? 0, CURRENCY, { decimals: 'always' });
}

/** The plans the coupon is for. */
function PlanChoice({ chosen, onToggle }: { chosen: PlanId[]; onToggle: (id: PlanId) => void }) {
  return (
    <fieldset className="admin-field">
      <legend>{copy.form.plans}</legend>
      {COUPON_PLANS.map((plan) => (
        <label key={plan.id}>
          <input type="checkbox" checked={chosen.includes(plan.id)} onChange={() => onToggle(plan.id)} /> {plan.name}
        </label>
      ))}
    </fieldset>
  );
}

/** The last create's outcome, announced: the server's refusal, or the code made. */
function CreateOutcome({ create }: { create: ReturnType<typeof useCreateCoupon> }) {
  return (
    <div aria-live="polite">
      {create.isError ? (
        <p role="alert" className="coupons-error">
          {errorText(create.error)}
        </p>
      ) : create.isSuccess ? (
        <p role="status">{copy.form.created(create.data.code)}</p>
      ) : null}
    </div>
  );
}

function CouponForm() {
  const create = useCreateCoupon();
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<CouponKind>('percent');
  const [value, setValue] = useState('');
  const [plans, setPlans] = useState<PlanId[]>([OFFERS.default.id]);
  const [months, setMonths] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [maxRedemptions, setMaxRedemptions] = useState('');
  const [saveOffer, setSaveOffer] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        code,
        kind,
        ...(kind === 'percent' ? { percentOff: Number(value) } : { amountOffCents: toMinorUnits(Number(value), CURRENCY) }),
        planIds: plans,
        durationMonths: optionalInt(months),
        expiresAt: expiresAt ? new Date(`${expiresAt}:00Z`).toISOString() : null,
        maxRedemptions: optionalInt(maxRedemptions),
        saveOffer,
      },
      { onSuccess: () => setCode('') },
    );
  };
  const toggle = (id: PlanId) => setPlans((chosen) => (chosen.includes(id) ? chosen.filter((p) => p !== id) : [...chosen, id]));

  return (
    <form className="admin-card coupons-form" onSubmit={submit} noValidate data-testid="coupon-create">
      <h2>{copy.form.heading}</h2>
      <div className="admin-field">
        <label htmlFor="coupon-code">{copy.form.code}</label>
        <input id="coupon-code" value={code} maxLength={40} autoComplete="off" onChange={(e) => setCode(e.target.value)} />
      </div>
      <fieldset className="admin-field">
        <legend>{copy.form.kind}</legend>
        <label>
          <input type="radio" name="kind" checked={kind === 'percent'} onChange={() => setKind('percent')} /> {copy.form.percent}
        </label>
        <label>
          <input type="radio" name="kind" checked={kind === 'fixed'} onChange={() => setKind('fixed')} /> {copy.form.fixed}
        </label>
        <input
          aria-label={kind === 'percent' ? copy.form.percent : copy.form.fixed}
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </fieldset>
      <PlanChoice chosen={plans} onToggle={toggle} />
      <div className="admin-field">
        <label htmlFor="coupon-months">{copy.form.months}</label>
        <input id="coupon-months" inputMode="numeric" value={months} onChange={(e) => setMonths(e.target.value)} />
      </div>
      <div className="admin-field">
        <label htmlFor="coupon-expires">{copy.form.expiresAt}</label>
        <input id="coupon-expires" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
      </div>
      <div className="admin-field">
        <label htmlFor="coupon-max">{copy.form.maxRedemptions}</label>
        <input id="coupon-max" inputMode="numeric" value={maxRedemptions} onChange={(e) => setMaxRedemptions(e.target.value)} />
      </div>
      <div className="admin-field">
        <label>
          <input type="checkbox" checked={saveOffer} onChange={(e) => setSaveOffer(e.target.checked)} /> {copy.form.saveOffer}
        </label>
      </div>
      <button type="submit" className="admin-button" disabled={create.isPending}>
        {create.isPending ? copy.form.creating : copy.form.create}
      </button>
      <CreateOutcome create={create} />
    </form>
  );
}

function CouponRow({ coupon }: { coupon: AdminCoupon }) {
  const deactivate = useDeactivateCoupon();
  const l = copy.list;
  return (
    <tr data-testid="coupon-row">
      <th scope="row">{coupon.code}</th>
      <td>{discountOf(coupon)}</td>
      <td>{coupon.planIds.map((id) => findPlan(id)?.name ?? id).join(', ')}</td>
      <td>{coupon.durationMonths === null ? l.forever : l.months(coupon.durationMonths)}</td>
      <td>{coupon.expiresAt ? `${coupon.expiresAt.slice(0, 16).replace('T', ' ')} UTC` : l.never}</td>
      <td>{coupon.maxRedemptions === null ? l.unlimited(coupon.redeemed) : l.capped(coupon.redeemed, coupon.maxRedemptions)}</td>
      <td>
        {coupon.active ? l.active : l.inactive}
        {coupon.saveOffer ? ` · ${l.saveOffer}` : null}
      </td>
      <td>
        {coupon.active ? (
          <button
            type="button"
            className="admin-button"
            aria-label={l.deactivateLabel(coupon.code)}
            disabled={deactivate.isPending}
            onClick={() => deactivate.mutate(coupon.id)}
          >
            {l.deactivate}
          </button>
        ) : null}
        {deactivate.isError ? <span role="alert">{errorText(deactivate.error)}</span> : null}
      </td>
    </tr>
  );
}

/** The coupons screen: create a code, list codes with their redemptions, deactivate one; and what came of the cancellation flow. */
export function CouponsPage() {
  const coupons = useCoupons();
  const l = copy.list;
  return (
    <div className="admin__page coupons-page">
      <PageHeading>{pages.adminCoupons.heading}</PageHeading>
      <p>{copy.intro}</p>
      <CouponForm />
      <h2>{l.heading}</h2>
      {coupons.isPending ? (
        <p role="status">{l.loading}</p>
      ) : coupons.isError ? (
        <p role="alert">{l.loadFailed}</p>
      ) : coupons.data.length === 0 ? (
        <p>{l.empty}</p>
      ) : (
        <div className="coupons-table-wrap">
          <table className="coupons-table">
            <thead>
              <tr>
                <th scope="col">{l.code}</th>
                <th scope="col">{l.discount}</th>
                <th scope="col">{l.plans}</th>
                <th scope="col">{l.duration}</th>
                <th scope="col">{l.expires}</th>
                <th scope="col">{l.redeemed}</th>
                <th scope="col">{l.status}</th>
                <th scope="col">{l.action}</th>
              </tr>
            </thead>
            <tbody>
              {coupons.data.map((coupon) => (
                <CouponRow key={coupon.id} coupon={coupon} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CancellationsSection />
    </div>
  );
}
