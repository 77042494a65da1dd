import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { checkout as copy } from '@/content/checkout';
import { useCouponQuote } from '../api/get-coupon-quote';
import { usePaymentsConfig } from '../api/get-payments-config';
import { useOneClickOffer } from '../api/one-click';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import { loadPaymentProvider } from '../providers/payment-provider';
import type { CardConfirmer } from '../providers/provider-types';
import { useCheckoutIntent } from '../use-checkout-intent';
import { useCheckoutPayment } from '../use-checkout-payment';
import { useOneClickPayment } from '../use-one-click-payment';
import { CouponField } from './coupon-field';
import { OrderSummary } from './order-summary';
import { PaymentSetupError } from './payment-setup-error';
import '../checkout.css';

function Spinner({ label }: { label: string }) {
  return (
    <div className="checkout__loading" role="status" data-testid="payment-initializing">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** /checkout (spec section 2): the card entry of the configured provider, the pay button and the order summary. */
export function CheckoutPage({ handOff, setupReturn }: { handOff: CheckoutHandOff; setupReturn: SetupReturn | null }) {
  const { plan, email, name } = handOff;
  const config = usePaymentsConfig();
  const provider = useQuery({
    queryKey: ['payment-provider', config.data?.provider, config.data?.publishableKey],
    queryFn: () => loadPaymentProvider(config.data!),
    enabled: config.isSuccess,
  });
  // The code tried (from ?coupon= or the summary's field); the server's quote says whether it applies.
  const [couponCode, setCouponCode] = useState<string | null>(handOff.coupon);
  const quote = useCouponQuote(couponCode, plan.id);
  const discount = quote.data?.valid ? quote.data : null;
  // The intent waits for the quote of a code being checked, so it is created once, for the right amount.
  const couponSettled = couponCode === null || !quote.isPending;
  // The browser that has just paid may buy a one-time plan with the card it saved, at the full
  // price: that offer is asked first (not with a coupon, which needs a checkout of its own), and
  // the card form (and its intent) only made when there is none or it is declined.
  const [otherCard, setOtherCard] = useState(false);
  const useOtherCard = useCallback(() => setOtherCard(true), []);
  const oneClickAsked = setupReturn === null && plan.kind === 'one-time' && Boolean(email && name) && !otherCard && couponCode === null;
  const oneClick = useOneClickOffer(plan.id, email, oneClickAsked);
  const offer = oneClickAsked ? (oneClick.data?.offer ?? null) : null;
  const offerPending = oneClickAsked && oneClick.isPending;
  const intent = useCheckoutIntent(
    handOff,
    email,
    name,
    setupReturn === null && couponSettled && !offer && !offerPending,
    discount?.code ?? null,
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
  const oneClickPayment = useOneClickPayment(handOff, provider.data ?? null, useOtherCard);

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
  if (offer)
    body = (
      <div className="checkout__one-click">
        <button
          type="button"
          className="button button--cta button--block"
          disabled={oneClickPayment.processing}
          onClick={() => void oneClickPayment.buy()}
          data-testid="one-click-button"
        >
          {oneClickPayment.processing ? copy.processing : copy.oneClick.pay(offer.amountCents / 100, offer.last4)}
        </button>
        <button type="button" className="checkout__link-button" disabled={oneClickPayment.processing} onClick={useOtherCard}>
          {copy.oneClick.otherCard}
        </button>
      </div>
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
        <p className="checkout__mandate">{copy.mandate}</p>
      </>
    );
  else body = <Spinner label={copy.initializing} />;

  return (
    <main className="checkout">
      <div className="container checkout__container">
        <Link to="/" className="checkout__back">
          <span aria-hidden="true">←</span> {copy.backToHome}
        </Link>
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
            </div>
            {offer ? null : (
              <button
                type="submit"
                className="button button--cta button--block"
                disabled={!providerReady || processing}
                data-testid="pay-button"
              >
                {processing ? copy.processing : copy.payLabel(plan, discount?.totalCents)}
              </button>
            )}
            <ul className="checkout__notes">
              {copy.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </form>
          <OrderSummary
            plan={plan}
            email={email}
            name={name}
            discount={discount}
            coupon={
              <CouponField
                applied={discount?.code ?? null}
                pending={quote.isFetching}
                message={quote.data && !quote.data.valid ? quote.data.message : quote.isError ? copy.coupon.unavailable : null}
                onApply={setCouponCode}
                onRemove={() => setCouponCode(null)}
              />
            }
          />
        </div>
      </div>
    </main>
  );
}
