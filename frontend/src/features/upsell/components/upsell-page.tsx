import { OFFERS } from '@contracts/plans';
import { useEffect } from 'react';
import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { PlanCards } from '@/components/plan-cards';
import { upsell as copy } from '@/content/upsell';
import { track } from '@/lib/analytics';
import { defineIsland } from '@/lib/islands';
import { usePageSearch } from '@/lib/use-page-search';
import { readUpsellVisitor, upsellCheckoutHref, type UpsellVisitor } from '../upsell-hand-off';
import '../upsell.css';

function MainCta({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <div className="upsell__cta">
      <PageLink to={href} className="button button--cta upsell__cta-button" testId={testId}>
        {label}
      </PageLink>
      <p className="upsell__from">{copy.startingFrom}</p>
    </div>
  );
}

/** /upsell: the 30-Day Experience offer (spec sections 1, 2 and 9). */
export function UpsellPage({ visitor }: { visitor: UpsellVisitor }) {
  useEffect(() => {
    track({ name: 'ViewContent', params: { content_name: copy.viewContentName, content_category: copy.viewContentCategory } });
  }, []);
  const defaultHref = upsellCheckoutHref(copy.defaultPlan.id, visitor);

  return (
    <main className="upsell">
      <header className="upsell__hero">
        <div className="container container--narrow">
          <p className="upsell__eyebrow">{copy.eyebrow}</p>
          <PageHeading>{copy.headline}</PageHeading>
          <p className="upsell__lead">{copy.subheadline}</p>
          <MainCta href={defaultHref} label={copy.mainCta} testId="upsell-main-cta" />
        </div>
      </header>

      <section className="upsell__section" aria-labelledby="upsell-offer-heading">
        <div className="container container--narrow">
          <h2 id="upsell-offer-heading">{copy.offerHeading}</h2>
          <p>{copy.offerIntro}</p>
          <h3>{copy.includesHeading}</h3>
          <ul className="upsell__includes">
            {copy.includes.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      </section>

      <section className="upsell__section upsell__section--alt" aria-labelledby="upsell-plans-heading">
        <div className="container">
          <h2 id="upsell-plans-heading">{copy.plansHeading}</h2>
          <PlanCards block="upsell" testIdPrefix="upsell-plan" hrefFor={(plan) => upsellCheckoutHref(plan, visitor)} />
        </div>
      </section>

      <section className="upsell__section" aria-labelledby="upsell-guarantee-heading">
        <div className="container container--narrow upsell__guarantee">
          <h2 id="upsell-guarantee-heading">{copy.guaranteeHeading}</h2>
          <p>
            {copy.guarantee} <strong>{copy.guaranteePromise}</strong>
          </p>
        </div>
      </section>

      <footer className="upsell__footer">
        <div className="container container--narrow">
          <MainCta href={defaultHref} label={copy.footerCta} testId="upsell-footer-cta" />
          <PageLink to={upsellCheckoutHref(OFFERS.default.id, visitor)} className="upsell__decline">
            {copy.decline}
          </PageLink>
        </div>
      </footer>
    </main>
  );
}

/** The prerendered /upsell: the whole page is one island, its links aimed once the visitor's query is known. */
function PrerenderedUpsellPage() {
  const search = usePageSearch();
  return <UpsellPage visitor={readUpsellVisitor(new URLSearchParams(search))} />;
}

export const upsellIsland = defineIsland('upsell', () => <PrerenderedUpsellPage />);
