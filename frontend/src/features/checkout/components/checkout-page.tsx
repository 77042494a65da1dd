import { toMinorUnits } from '@contracts/money';
import { bumpOffered, CURRENCY } from '@contracts/plans';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { checkout as copy } from '@/content/checkout';
import { useHydrated } from '@/lib/use-hydrated';
import { useRequest } from '@/lib/use-request';
import { getPaymentsConfig } from '../api/get-payments-config';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import { loadPaymentProvider } from '../providers/payment-provider';
import type { CardConfirmer } from '../providers/provider-types';
import { useCheckoutIntent } from '../use-checkout-intent';
import { useCheckoutPayment } from '../use-checkout-payment';
import { useCouponQuote, type CouponQuoteState } from '../use-coupon-quote';
import { useOneClickOffer } from '../use-one-click-offer';
import { CardEntry } from './card-entry';
import { CouponField } from './coupon-field';
import { OrderSummary, OrderSummaryOutline } from './order-summary';
import { PaymentSetupError } from './payment-setup-error';
import '../checkout.css';

/**
 * The card form of each intent reports ready with its confirmer; a new intent (a coupon applied
 * or removed) mounts a new form, and the old form's confirmer no longer counts.
 */
function useCardConfirmer(clientSecret: string | null) {
  const [ready, setReady] = useState<{ clientSecret: string | null; confirmer: CardConfirmer } | null>(null);
  const onReady = useCallback((confirmer: CardConfirmer) => setReady({ clientSecret, confirmer }), [clientSecret]);
  return { confirmer: ready && ready.clientSecret === clientSecret ? ready.confirmer : null, onReady };
}

/** The add-on, offered unticked; ticking it adds it to the order. */
function BumpCheckbox({ checked, disabled, onChange }: { checked: boolean; disabled: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkout__bump">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="bump-checkbox"
      />
      <span>{copy.bump.label}</span>
    </label>
  );
}

/** The pay button; before the page is live, a placeholder of its size; none while the saved card's offer is shown. */
function PayButton({ live, shown, disabled, children }: { live: boolean; shown: boolean; disabled: boolean; children: string }) {
  if (!live)
    return (
      <span className="button button--cta button--block checkout__pay-placeholder" aria-hidden="true">
        {'\u00a0'}
      </span>
    );
  return shown ? (
    <button type="submit" className="button button--cta button--block" disabled={disabled} data-testid="pay-button">
      {children}
    </button>
  ) : null;
}

/** The order summary once the page is live, with its coupon field; before that, its outline. */
function CheckoutSummary({
  live,
  handOff,
  coupon,
  bumpCents,
}: {
  live: boolean;
  handOff: CheckoutHandOff;
  coupon: CouponQuoteState;
  bumpCents: number;
}) {
  if (!live) return <OrderSummaryOutline />;
  return (
    <OrderSummary
      plan={handOff.plan}
      email={handOff.email}
      name={handOff.name}
      discount={coupon.discount}
      bumpCents={bumpCents}
      coupon={
        <CouponField
          applied={coupon.discount?.code ?? null}
          pending={coupon.quote.isFetching}
          message={coupon.message}
          onApply={coupon.setCode}
          onRemove={() => coupon.setCode(null)}
        />
      }
    />
  );
}

/**
 * /checkout (spec section 2): the card entry of the configured provider, the pay button and the
 * order summary. The page's document is this screen prerendered before any visitor is known (see
 * pages/checkout-islands.ts): its frame, with the spinner and the summary's outline, which the
 * browser hydrates and then fills in; nothing is asked of the server before that.
 */
export function CheckoutPage({ handOff, setupReturn }: { handOff: CheckoutHandOff; setupReturn: SetupReturn | null }) {
  const { plan, email, name } = handOff;
  const live = useHydrated();
  const config = useRequest(live ? 'payments-config' : null, getPaymentsConfig);
  const loadedConfig = config.data;
  const provider = useRequest(loadedConfig ? `${loadedConfig.provider}:${loadedConfig.publishableKey ?? ''}` : null, () =>
    loadPaymentProvider(loadedConfig!),
  );
  const coupon = useCouponQuote(handOff, live);
  const { discount } = coupon;
  // The add-on (order bump): offered unticked, never pre-ticked; ticking it makes the intent again with it.
  const bump = bumpOffered(plan);
  const [bumpTicked, setBumpTicked] = useState(false);
  const bumpCents = bump && bumpTicked ? toMinorUnits(bump.amount, CURRENCY) : 0;
  const chargedCents = discount || bumpCents ? (discount?.totalCents ?? toMinorUnits(plan.amount, CURRENCY)) + bumpCents : undefined;
  const oneClick = useOneClickOffer(handOff, live && setupReturn === null && coupon.code === null);
  const { offer } = oneClick;
  const intentWanted = live && setupReturn === null && coupon.settled && !offer && !oneClick.offerPending;
  const intent = useCheckoutIntent(handOff, email, name, intentWanted, discount?.code ?? null, bumpCents > 0);
  const card = useCardConfirmer(intent.clientSecret);
  const { confirmer } = card;
  // A code used up (or deactivated) between its quote and the order: the quote is asked again, so
  // the summary shows why and the full price, and the intent is created again without it.
  const { refetch: refetchQuote } = coupon.quote;
  const couponRefused = intent.failed && discount !== null;
  useEffect(() => {
    if (couponRefused) void refetchQuote();
  }, [couponRefused, refetchQuote]);
  const { processing, pay } = useCheckoutPayment(handOff, provider.data ?? null, confirmer, setupReturn);

  if (config.isError || provider.isError) return <PaymentSetupError />;

  // Without e-mail and name the pay button answers with the 'Missing Information' toast once the provider has loaded.
  const providerReady = !email || !name ? provider.isSuccess : confirmer !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void pay();
  };

  return (
    <main className="checkout">
      <div className="container checkout__container">
        <PageLink to="/" className="checkout__back">
          <span aria-hidden="true">←</span> {copy.backToHome}
        </PageLink>
        <PageHeading>{copy.heading}</PageHeading>
        <div className="checkout__grid">
          <form
            className="card checkout__payment"
            aria-labelledby="payment-details-heading"
            noValidate
            onSubmit={onSubmit}
            data-testid="payment-form"
          >
            <h2 id="payment-details-heading">{copy.paymentDetails}</h2>
            <div className="checkout__element" aria-busy={!providerReady || processing}>
              <CardEntry
                handOff={handOff}
                live={live}
                setupReturn={setupReturn}
                provider={provider}
                oneClick={oneClick}
                intent={intent}
                card={card}
              />
              {/* Where a card is entered, from the first paint on (the page's largest text, so it paints with the frame). */}
              {offer ? null : <p className="checkout__mandate">{copy.mandate}</p>}
            </div>
            {/* In the first paint too (disabled until the page is live), so its line shifts nothing. */}
            {bump && !offer && !setupReturn ? (
              <BumpCheckbox checked={bumpTicked} disabled={!live || processing} onChange={setBumpTicked} />
            ) : null}
            <PayButton live={live} shown={!offer} disabled={!providerReady || processing}>
              {processing ? copy.processing : copy.payLabel(plan, CURRENCY, chargedCents)}
            </PayButton>
            <ul className="checkout__notes">
              {copy.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </form>
          <CheckoutSummary live={live} handOff={handOff} coupon={coupon} bumpCents={bumpCents} />
        </div>
      </div>
    </main>
  );
}
