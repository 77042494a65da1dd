import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { success as copy } from '@/content/success';
import { upsell } from '@/content/upsell';
import { retryCheckoutHref } from '../success-hand-off';

interface UpgradeOfferViewProps {
  email: string | null;
  name: string | null;
  onDecline(): void;
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
          <p>{copy.offer.intro}</p>
          <ul className="success__plans">
            {upsell.plans.map((card) => (
              <li
                key={card.plan.id}
                className={card.highlighted ? 'success__plan success__plan--highlighted' : 'success__plan'}
                data-testid={`offer-plan-${card.plan.id}`}
              >
                <p className="success__badge">{card.badge}</p>
                <h3>{card.title}</h3>
                <p className="success__price">{card.price}</p>
                <p className="success__breakdown">{card.breakdown}</p>
                {card.saving ? <p className="success__saving">{card.saving}</p> : null}
                <Link
                  to={retryCheckoutHref(card.plan.id, email, name)}
                  className={card.highlighted ? 'button button--cta button--block' : 'button button--secondary button--block'}
                >
                  {card.cta}
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="success__decline" onClick={onDecline}>
            {copy.offer.decline}
          </button>
        </section>
      </div>
    </main>
  );
}
