import { lazy, Suspense } from 'react';
import { checkout as copy } from '@/content/checkout';
import type { RequestState } from '@/lib/use-request';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import type { PaymentProvider } from '../providers/provider-types';
import type { CheckoutIntent } from '../use-checkout-intent';
import type { OneClickOfferState } from '../use-one-click-offer';

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

interface CardEntryProps {
  handOff: CheckoutHandOff;
  live: boolean;
  setupReturn: SetupReturn | null;
  provider: RequestState<PaymentProvider>;
  oneClick: OneClickOfferState;
  intent: CheckoutIntent;
}

/**
 * Where the card is taken, by how far the checkout has got: the saved card's offer, the provider's
 * card form once its intent exists, or meanwhile a spinner, a note or a retry.
 */
export function CardEntry({ handOff, live, setupReturn, provider, oneClick, intent }: CardEntryProps) {
  const PaymentForm = provider.data?.PaymentForm;
  if (!live) return <Spinner label={copy.initializing} />;
  if (oneClick.offer)
    return (
      <Suspense fallback={<Spinner label={copy.oneClick.checking} />}>
        <OneClickOffer offer={oneClick.offer} handOff={handOff} provider={provider.data ?? null} onOtherCard={oneClick.useOtherCard} />
      </Suspense>
    );
  if (oneClick.pending) return <Spinner label={copy.oneClick.checking} />;
  if (setupReturn) return <Spinner label={copy.processing} />;
  if (!handOff.email || !handOff.name)
    return provider.isSuccess ? (
      <p className="checkout__muted">{copy.toasts.missingInformation.description}</p>
    ) : (
      <Spinner label={copy.initializing} />
    );
  if (intent.failed)
    return (
      <div className="checkout__init-failed" role="alert">
        <p>{copy.toasts.setupError.networkFallback}</p>
        <button type="button" className="button button--secondary" onClick={intent.retry}>
          {copy.retryInitialize}
        </button>
      </div>
    );
  if (intent.clientSecret && PaymentForm)
    return (
      <>
        {intent.confirmer ? null : <Spinner label={copy.initializing} />}
        <div className={intent.confirmer ? undefined : 'checkout__element--pending'}>
          <PaymentForm key={intent.clientSecret} clientSecret={intent.clientSecret} onReady={intent.onReady} />
        </div>
      </>
    );
  return <Spinner label={copy.initializing} />;
}
