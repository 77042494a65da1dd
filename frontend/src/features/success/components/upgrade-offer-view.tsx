import { PageHeading } from '@/components/page-heading';
import { PlanCards } from '@/components/plan-cards';
import { success as copy } from '@/content/success';
import { retryCheckoutHref } from '../success-hand-off';

interface UpgradeOfferViewProps {
  email: string | null;
  name: string | null;
  onDecline: () => void;
}

/** 'Payment Confirmed!' with the one-time 30-day intensive offer (spec section 2, /success). */
export function UpgradeOfferView({ email, name, onDecline }: UpgradeOfferViewProps) {
  return (
    <main className="success">
      <div className="container success__container">
        <header className="success__hero">
          <span className="success__check" aria-hidden="true">
            ✓
          </span>
          <PageHeading>{copy.confirmed.heading}</PageHeading>
          <p>{copy.confirmed.body}</p>
        </header>
        <section className="success__offer" aria-labelledby="upgrade-offer-heading" data-testid="upgrade-offer">
          <p className="success__eyebrow">{copy.offer.eyebrow}</p>
          <h2 id="upgrade-offer-heading">{copy.offer.heading}</h2>
          {/* One short block per line: a paragraph would outgrow the loading view (see content/success.ts). */}
          <div className="success__includes">
            {copy.offer.includes.map((item) => (
              <p key={item}>{item}</p>
            ))}
          </div>
          <p>{copy.offer.once}</p>
          <PlanCards block="success" testIdPrefix="offer-plan" hrefFor={(plan) => retryCheckoutHref(plan, email, name)} />
          <button type="button" className="success__decline" onClick={onDecline}>
            {copy.offer.decline}
          </button>
        </section>
      </div>
    </main>
  );
}
