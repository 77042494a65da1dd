import type { PlanId } from '@contracts/plans';
import { planCards } from '@/content/plan-cards';
import { PageLink } from './page-link';

interface PlanCardsProps {
  /** The page's BEM block ('success', 'upsell'): its `__plans` and `__plan` classes size the cards. */
  block: string;
  /** Each card's data-testid is this prefix and the card's plan id. */
  testIdPrefix: string;
  hrefFor: (plan: PlanId) => string;
}

/**
 * The 30-Day Experience's payment options as cards, each a link to checkout: the /success offer and
 * /upsell. Their styles (plan-cards.css) come inside each page's stylesheet, which @imports them.
 */
export function PlanCards({ block, testIdPrefix, hrefFor }: PlanCardsProps) {
  return (
    <ul className={`plan-cards ${block}__plans`}>
      {planCards.map((card) => (
        <li
          key={card.plan.id}
          className={card.highlighted ? `plan-card ${block}__plan ${block}__plan--highlighted` : `plan-card ${block}__plan`}
          data-testid={`${testIdPrefix}-${card.plan.id}`}
        >
          <p className="plan-card__badge">{card.badge}</p>
          <h3>{card.title}</h3>
          <p className="plan-card__price">{card.price}</p>
          <p className="plan-card__breakdown">{card.breakdown}</p>
          {card.saving ? <p className="plan-card__saving">{card.saving}</p> : null}
          <PageLink
            to={hrefFor(card.plan.id)}
            className={card.highlighted ? 'button button--cta button--block' : 'button button--secondary button--block'}
          >
            {card.cta}
          </PageLink>
        </li>
      ))}
    </ul>
  );
}
