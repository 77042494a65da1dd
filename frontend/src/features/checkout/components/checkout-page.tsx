import { toMinorUnits } from '@contracts/money';
import { bumpOffered, CURRENCY } from '@contracts/plans';
import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { checkout as copy } from '@/content/checkout';
import { ApiError } from '@/lib/api-client';
import { useHydrated } from '@/lib/use-hydrated';
import { useRequest } from '@/lib/use-request';
import { getCouponQuote } from '../api/get-coupon-quote';
import { getPaymentsConfig } from '../api/get-payments-config';
import { getOneClickOffer } from '../api/one-click';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import { loadPaymentProvider } from '../providers/payment-provider';
import type { CardConfirmer } from '../providers/provider-types';
import { useCheckoutIntent } from '../use-checkout-intent';
import { useCheckoutPayment } from '../use-checkout-payment';
import { CouponField } from './coupon-field';
import { OrderSummary, OrderSummaryOutline } from './order-summary';
import { PaymentSetupError } from './payment-setup-error';
import '../checkout.css';

// Fetched only once the server has offered the saved card: a checkout without one never loads it.
const OneClickOffer = lazy(() => import('./one-click-offer'));

function Spinner({ label }: { label: string }) {
  return (
    <div className="checkout__loading" role="status" data-testid="payment-initializing">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/**
 * /checkout (spec section 2): the card entry of the configured provider, the pay button and the
 * order summary. The page's document is this screen prerendered before any visitor is known (see
 * pages/registry.ts): its frame, with the spinner and the summary's outline, which the
 * browser hydrates and then fills in; nothing is asked of the server before that.
 * Whole on purpose: split into named hooks and components it costs /checkout 0.2-0.3 KiB of gzip
 * JavaScript (measured), more than the Stripe page's margin under its 75 KiB budget.
 */
// eslint-disable-next-line max-lines-per-function -- the page's JS budget (see above)
export function CheckoutPage({ handOff, setupReturn }: { handOff: CheckoutHandOff; setupReturn: SetupReturn | null }) {
  const { plan, email, name } = handOff;
  const live = useHydrated();
  const config = useRequest(live ? 'payments-config' : null, getPaymentsConfig);
  const loadedConfig = config.data;
  const provider = useRequest(loadedConfig ? `${loadedConfig.provider}:${loadedConfig.publishableKey ?? ''}` : null, () =>
    loadPaymentProvider(loadedConfig!),
  );
  // The code tried (from ?coupon= or the summary's field); the server's quote says whether it applies.
  // Undefined: the hand-off's (the prerendered page learns it only once it hydrates).
  const [triedCode, setCouponCode] = useState<string | null | undefined>(undefined);
  const couponCode = triedCode === undefined ? handOff.coupon : triedCode;
  const quote = useRequest(live && couponCode !== null ? `${plan.id}:${couponCode}` : null, (signal) =>
    getCouponQuote(couponCode ?? '', plan.id, { signal }),
  );
  const discount = quote.data?.valid ? quote.data : null;
  // The add-on (order bump): offered unticked, never pre-ticked; ticking it makes the intent again with it.
  const bump = bumpOffered(plan);
  const [bumpTicked, setBumpTicked] = useState(false);
  const bumpCents = bump && bumpTicked ? toMinorUnits(bump.amount, CURRENCY) : 0;
  const chargedCents = discount || bumpCents ? (discount?.totalCents ?? toMinorUnits(plan.amount, CURRENCY)) + bumpCents : undefined;
  // A refused check says why (too many codes tried: wait a minute); anything else, that it failed.
  const quoteFailure = quote.isError ? (quote.error instanceof ApiError && quote.error.serverMessage) || copy.coupon.unavailable : null;
  // The intent waits for the quote of a code being checked, so it is created once, for the right amount.
  const couponSettled = couponCode === null || !quote.isPending;
  // The browser that has just paid may buy a one-time plan with the card it saved, at the full
  // price: that offer is asked first (not with a coupon, which needs a checkout of its own), and
  // the card form (and its intent) only made when there is none or it is declined.
  const [otherCard, setOtherCard] = useState(false);
  const useOtherCard = useCallback(() => setOtherCard(true), []);
  const oneClickAsked =
    live && setupReturn === null && plan.kind === 'one-time' && Boolean(email && name) && !otherCard && couponCode === null;
  const oneClick = useRequest(oneClickAsked ? `${plan.id}:${email}` : null, (signal) => getOneClickOffer(plan.id, email ?? '', signal));
  const offer = oneClickAsked ? (oneClick.data?.offer ?? null) : null;
  const offerPending = oneClickAsked && oneClick.isPending;
  const intent = useCheckoutIntent(
    handOff,
    email,
    name,
    live && setupReturn === null && couponSettled && !offer && !offerPending,
    discount?.code ?? null,
    bumpCents > 0,
  );
  // The card form of each intent reports ready with its confirmer; a new intent (a coupon applied
  // or removed) mounts a new form, and the old form's confirmer no longer counts.
  const [ready, setReady] = useState<{ clientSecret: string | null; confirmer: CardConfirmer } | null>(null);
  const onReady = useCallback(
    (confirmer: CardConfirmer) => setReady({ clientSecret: intent.clientSecret, confirmer }),
    [intent.clientSecret],
  );
  const confirmer = ready && ready.clientSecret === intent.clientSecret ? ready.confirmer : null;
  // A code used up (or deactivated) between its quote and the order: the quote is asked again, so
  // the summary shows why and the full price, and the intent is created again without it.
  const { refetch: refetchQuote } = quote;
  const couponRefused = intent.failed && discount !== null;
  useEffect(() => {
    if (couponRefused) void refetchQuote();
  }, [couponRefused, refetchQuote]);
  const { processing, pay } = useCheckoutPayment(handOff, provider.data ?? null, confirmer, setupReturn);

  if (config.isError || provider.isError) return <PaymentSetupError />;

  const missingInformation = !email || !name;
  // Without e-mail and name there is no intent to mount, but the button still answers with the
  // 'Missing Information' toast once the provider has loaded (spec section 5).
  const providerReady = missingInformation ? provider.isSuccess : confirmer !== null;
  const PaymentForm = provider.data?.PaymentForm;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void pay();
  };

  let body;
  if (!live) body = <Spinner label={copy.initializing} />;
  else if (offer)
    body = (
      <Suspense fallback={<Spinner label={copy.oneClick.checking} />}>
        <OneClickOffer offer={offer} handOff={handOff} provider={provider.data ?? null} onOtherCard={useOtherCard} />
      </Suspense>
    );
  else if (offerPending) body = <Spinner label={copy.oneClick.checking} />;
  else if (setupReturn) body = <Spinner label={copy.processing} />;
  else if (missingInformation)
    body = provider.isSuccess ? (
      <p className="checkout__muted">{copy.toasts.missingInformation.description}</p>
    ) : (
      <Spinner label={copy.initializing} />
    );
  else if (intent.failed)
    body = (
      <div className="checkout__init-failed" role="alert">
        <p>{copy.toasts.setupError.networkFallback}</p>
        <button type="button" className="button button--secondary" onClick={intent.retry}>
          {copy.retryInitialize}
        </button>
      </div>
    );
  else if (intent.clientSecret && PaymentForm)
    body = (
      <>
        {confirmer ? null : <Spinner label={copy.initializing} />}
        <div className={confirmer ? undefined : 'checkout__element--pending'}>
          <PaymentForm key={intent.clientSecret} clientSecret={intent.clientSecret} onReady={onReady} />
        </div>
      </>
    );
  else body = <Spinner label={copy.initializing} />;

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
              {body}
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
              <button
                type="submit"
                className="button button--cta button--block"
                disabled={!providerReady || processing}
                data-testid="pay-button"
              >
                {processing ? copy.processing : copy.payLabel(plan, CURRENCY, chargedCents)}
              </button>
            )}
            <ul className="checkout__notes">
              {copy.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </form>
          {live ? (
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
                  message={quote.data && !quote.data.valid ? quote.data.message : quoteFailure}
                  onApply={setCouponCode}
                  onRemove={() => setCouponCode(null)}
                />
              }
            />
          ) : (
            <OrderSummaryOutline />
          )}
        </div>
      </div>
    </main>
  );
}
