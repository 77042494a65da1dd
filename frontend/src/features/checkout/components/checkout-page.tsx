import { toMinorUnits } from '@contracts/money';
import { bumpOffered, CURRENCY } from '@contracts/plans';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { checkout as copy } from '@/content/checkout';
import { ApiError } from '@/lib/api-client';
import { useHydrated } from '@/lib/use-hydrated';
import { useRequest } from '@/lib/use-request';
import { getPaymentsConfig } from '../api/get-payments-config';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import { loadPaymentProvider } from '../providers/payment-provider';
import { useCheckoutIntent } from '../use-checkout-intent';
import { useCheckoutPayment } from '../use-checkout-payment';
import { useCouponQuote, type CouponQuoteState } from '../use-coupon-quote';
import { useOneClickOffer } from '../use-one-click-offer';
import { CardEntry } from './card-entry';
import { CouponField } from './coupon-field';
import { OrderSummary, OrderSummaryOutline } from './order-summary';
import { PaymentSetupError } from './payment-setup-error';
import '../checkout.css';

interface CheckoutSummaryProps {
  handOff: CheckoutHandOff;
  live: boolean;
  coupon: CouponQuoteState;
  bumpCents: number;
}

/** The order summary with its coupon field once the page is live; its outline in the first paint. */
function CheckoutSummary({ handOff: { plan, email, name }, live, coupon: { quote, discount, setCode }, bumpCents }: CheckoutSummaryProps) {
  if (!live) return <OrderSummaryOutline />;
  // A refused check says why (too many codes tried: wait a minute); anything else, that it failed.
  const failure = quote.isError ? (quote.error instanceof ApiError && quote.error.serverMessage) || copy.coupon.unavailable : null;
  return (
    <OrderSummary
      plan={plan}
      email={email}
      name={name}
      discount={discount}
      bumpCents={bumpCents}
      coupon={
        <CouponField
          applied={discount?.code ?? null}
          pending={quote.isFetching}
          message={quote.data && !quote.data.valid ? quote.data.message : failure}
          onApply={setCode}
          onRemove={() => setCode(null)}
        />
      }
    />
  );
}

interface CheckoutFrameProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** What the payment form holds above its notes: the card entry, the add-on and the pay button. */
  children: ReactNode;
  summary: ReactNode;
}

/** What /checkout shows the same from the first paint on: the way back, the heading, the payment form's frame and the summary beside it. */
function CheckoutFrame({ onSubmit, children, summary }: CheckoutFrameProps) {
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
            {children}
            <ul className="checkout__notes">
              {copy.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </form>
          {summary}
        </div>
      </div>
    </main>
  );
}

/**
 * /checkout (spec section 2): the card entry of the configured provider, the pay button and the
 * order summary. The page's document is this screen prerendered before any visitor is known (see
 * pages/registry.ts): its frame, with the spinner and the summary's outline, which the
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
  const { quote, discount } = coupon;
  // The add-on (order bump): offered unticked, never pre-ticked; ticking it makes the intent again with it.
  const bump = bumpOffered(plan);
  const [bumpTicked, setBumpTicked] = useState(false);
  const bumpCents = bump && bumpTicked ? toMinorUnits(bump.amount, CURRENCY) : 0;
  const chargedCents = discount || bumpCents ? (discount?.totalCents ?? toMinorUnits(plan.amount, CURRENCY)) + bumpCents : undefined;
  const oneClick = useOneClickOffer(handOff, live && setupReturn === null && coupon.code === null);
  const { offer } = oneClick;
  // The intent waits for the quote of a code being checked, so it is created once, for the right amount.
  const couponSettled = coupon.code === null || !quote.isPending;
  const cardWanted = live && setupReturn === null && couponSettled && !offer && !oneClick.pending;
  const intent = useCheckoutIntent(handOff, email, name, cardWanted, discount?.code ?? null, bumpCents > 0);
  // A code used up (or deactivated) between its quote and the order: the quote is asked again, so
  // the summary shows why and the full price, and the intent is created again without it.
  const { refetch: refetchQuote } = quote;
  const couponRefused = intent.failed && discount !== null;
  useEffect(() => {
    if (couponRefused) void refetchQuote();
  }, [couponRefused, refetchQuote]);
  const { processing, pay } = useCheckoutPayment(handOff, provider.data ?? null, intent.confirmer, setupReturn);

  if (config.isError || provider.isError) return <PaymentSetupError />;

  // Without e-mail and name there is no intent to mount, but the button still answers with the
  // 'Missing Information' toast once the provider has loaded (spec section 5).
  const providerReady = !email || !name ? provider.isSuccess : intent.confirmer !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void pay();
  };

  return (
    <CheckoutFrame onSubmit={onSubmit} summary={<CheckoutSummary handOff={handOff} live={live} coupon={coupon} bumpCents={bumpCents} />}>
      <div className="checkout__element" aria-busy={!providerReady || processing}>
        <CardEntry handOff={handOff} live={live} setupReturn={setupReturn} provider={provider} oneClick={oneClick} intent={intent} />
        {/* Where a card is entered, from the first paint on (the page's largest text, so it paints with the frame). */}
        {offer ? null : <p className="checkout__mandate">{copy.mandate}</p>}
      </div>
      {/* In the first paint too (disabled until the page is live), so its line shifts nothing. */}
      {bump && !offer && !setupReturn ? (
        <label className="checkout__bump">
          <input
            type="checkbox"
            checked={bumpTicked}
            disabled={!live || processing}
            onChange={(event) => setBumpTicked(event.target.checked)}
            data-testid="bump-checkbox"
          />
          <span>{copy.bump.label}</span>
        </label>
      ) : null}
      {!live ? (
        <span className="button button--cta button--block checkout__pay-placeholder" aria-hidden="true">
          {'\u00a0'}
        </span>
      ) : offer ? null : (
        <button type="submit" className="button button--cta button--block" disabled={!providerReady || processing} data-testid="pay-button">
          {processing ? copy.processing : copy.payLabel(plan, CURRENCY, chargedCents)}
        </button>
      )}
    </CheckoutFrame>
  );
}
