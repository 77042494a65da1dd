import { lazy, Suspense } from 'react';
import { checkout as copy } from '@/content/checkout';
import type { RequestState } from '@/lib/use-request';
import type { CheckoutHandOff, SetupReturn } from '../checkout-hand-off';
import type { CardConfirmer, PaymentProvider } from '../providers/provider-types';
import type { CheckoutIntent } from '../use-checkout-intent';
import type { useOneClickOffer } from '../use-one-click-offer';

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
  oneClick: ReturnType<typeof useOneClickOffer>;
  intent: CheckoutIntent;
  /** The card form's confirmer once it is ready, and how the form reports it. */
  card: { confirmer: CardConfirmer | null; onReady: (confirmer: CardConfirmer) => void };
}

/**
 * Where the checkout takes the card, by how far the page has got: the saved card's offer, the
 * provider's card form once its intent exists, or a spinner, a note or a retry meanwhile.
 */
export function CardEntry({ handOff, live, setupReturn, provider, oneClick, intent, card }: CardEntryProps) {
  const { offer } = oneClick;
  const { confirmer } = card;
  const PaymentForm = provider.data?.PaymentForm;
  if (!live) return <Spinner label={copy.initializing} />;
  if (offer)
    return (
      <Suspense fallback={<Spinner label={copy.oneClick.checking} />}>
        <OneClickOffer offer={offer} handOff={handOff} provider={provider.data ?? null} onOtherCard={oneClick.useOtherCard} />
      </Suspense>
    );
  if (oneClick.offerPending) return <Spinner label={copy.oneClick.checking} />;
  if (setupReturn) return <Spinner label={copy.processing} />;
  // Without e-mail and name there is no intent to mount, but the button still answers with the
  // 'Missing Information' toast once the provider has loaded (spec section 5).
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
        {confirmer ? null : <Spinner label={copy.initializing} />}
        <div className={confirmer ? undefined : 'checkout__element--pending'}>
          <PaymentForm key={intent.clientSecret} clientSecret={intent.clientSecret} onReady={card.onReady} />
        </div>
      </>
    );
  return <Spinner label={copy.initializing} />;
}
