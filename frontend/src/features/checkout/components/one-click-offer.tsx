import type { OneClickOfferResponse } from '@contracts/payments';
import { formatMoney } from '@contracts/money';
import { CURRENCY } from '@contracts/plans';
import { fill } from '@contracts/site/fill';
import { checkout as copy } from '@/content/checkout';
import type { CheckoutHandOff } from '../checkout-hand-off';
import type { PaymentProvider } from '../providers/provider-types';
import { useOneClickPayment } from '../use-one-click-payment';

interface OneClickOfferProps {
  offer: NonNullable<OneClickOfferResponse['offer']>;
  handOff: CheckoutHandOff;
  provider: PaymentProvider | null;
  /** The buyer asked for the card form instead, or the saved card was declined. */
  onOtherCard: () => void;
}

/**
 * The saved card's offer in place of the card form: one button pays with it, the other shows the
 * form. Its own chunk, loaded only when the server makes the offer: most checkouts never see it
 * (so its label is filled in here, not in content/checkout.ts, which every checkout loads).
 */
export default function OneClickOffer({ offer, handOff, provider, onOtherCard }: OneClickOfferProps) {
  const { processing, buy } = useOneClickPayment(handOff, provider, onOtherCard);
  return (
    <div className="checkout__one-click">
      <button
        type="button"
        className="button button--cta button--block"
        disabled={processing}
        onClick={() => void buy()}
        data-testid="one-click-button"
      >
        {processing ? copy.processing : fill(copy.oneClick.pay, { amount: formatMoney(offer.amountCents, CURRENCY), last4: offer.last4 })}
      </button>
      <button type="button" className="checkout__link-button" disabled={processing} onClick={onOtherCard}>
        {copy.oneClick.otherCard}
      </button>
    </div>
  );
}
