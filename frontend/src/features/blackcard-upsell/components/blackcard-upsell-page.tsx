import { useEffect } from 'react';
import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { blackcardUpsell as copy, LEVEL_ONE_PROGRESS_PERCENT } from '@/content/blackcard-upsell';
import { track } from '@/lib/analytics';
import { defineIsland } from '@/lib/islands';
import { usePageSearch } from '@/lib/use-page-search';
import { levelOneFinalHref, levelTwoCheckoutHref, readLevelTwoVisitor, type LevelTwoVisitor } from '../blackcard-upsell-hand-off';
import '../blackcard-upsell.css';

function AcceptButton({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <PageLink to={href} className="button button--cta level-two__accept" testId={testId}>
      {label}
    </PageLink>
  );
}

/** Level 1 done: how far along the whole path the buyer now is. */
function LevelOneProgress() {
  return (
    <div className="level-two__progress" data-testid="level-two-progress">
      <p className="level-two__completed">{copy.progress.completed}</p>
      <div
        className="level-two__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={LEVEL_ONE_PROGRESS_PERCENT}
        aria-label={copy.progress.label}
      >
        <span className="level-two__bar-fill" style={{ width: `${LEVEL_ONE_PROGRESS_PERCENT}%` }} />
      </div>
      <p className="level-two__progress-label">{copy.progress.label}</p>
    </div>
  );
}

/** Every level side by side, the current one marked. */
function LevelsTable() {
  return (
    <section className="level-two__section" aria-labelledby="level-two-levels-heading">
      <div className="container">
        <h2 id="level-two-levels-heading">{copy.levels.heading}</h2>
        <div className="level-two__table-wrap" tabIndex={0} role="region" aria-labelledby="level-two-levels-heading">
          <table className="level-two__table" data-testid="level-two-levels">
            <caption className="visually-hidden">{copy.levels.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{copy.levels.columns.level}</th>
                <th scope="col">{copy.levels.columns.focus}</th>
                <th scope="col">{copy.levels.columns.investment}</th>
                <th scope="col">{copy.levels.columns.result}</th>
              </tr>
            </thead>
            <tbody>
              {copy.levels.rows.map((row) => (
                <tr key={row.level} className={row.current ? 'level-two__row--current' : undefined}>
                  <th scope="row">{row.level}</th>
                  <td>{row.focus}</td>
                  <td>{row.investment}</td>
                  <td>{row.result}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/** /blackcard-upsell: the Level Two offer for invitees who just bought Level 1 (spec sections 1, 2 and 9). */
export function BlackcardUpsellPage({ visitor }: { visitor: LevelTwoVisitor }) {
  useEffect(() => {
    track({ name: 'ViewContent', params: { content_name: copy.viewContent.name, content_category: copy.viewContent.category } });
  }, []);
  const acceptHref = levelTwoCheckoutHref(visitor);

  return (
    <main className="level-two">
      <header className="level-two__hero">
        <div className="container container--narrow">
          <LevelOneProgress />
          <p className="level-two__eyebrow">{copy.hero.eyebrow}</p>
          <PageHeading>{copy.hero.heading}</PageHeading>
          <p className="level-two__lead">{copy.hero.body}</p>
          <AcceptButton href={acceptHref} label={copy.hero.cta} testId="level-two-accept-hero" />
        </div>
      </header>

      <section className="level-two__section" aria-labelledby="level-two-offer-heading">
        <div className="container container--narrow">
          <h2 id="level-two-offer-heading">{copy.offer.heading}</h2>
          <ul className="level-two__contents" data-testid="level-two-contents">
            {copy.offer.contents.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <AcceptButton href={acceptHref} label={copy.offer.cta} testId="level-two-accept-section" />
        </div>
      </section>

      <section className="level-two__section level-two__section--alt" aria-labelledby="level-two-investment-heading">
        <div className="container container--narrow level-two__investment" data-testid="level-two-investment">
          <h2 id="level-two-investment-heading">{copy.investment.heading}</h2>
          <p className="level-two__plan">{copy.investment.planName}</p>
          <p className="level-two__price">{copy.investment.price}</p>
          <p className="level-two__terms">{copy.investment.terms}</p>
          <AcceptButton href={acceptHref} label={copy.investment.cta} testId="level-two-accept-investment" />
        </div>
      </section>

      <LevelsTable />

      <footer className="level-two__final">
        <div className="container container--narrow">
          <h2>{copy.finalCall.heading}</h2>
          <p>{copy.finalCall.body}</p>
          <AcceptButton href={acceptHref} label={copy.finalCall.cta} testId="level-two-accept-final" />
          <PageLink to={levelOneFinalHref(visitor)} className="level-two__decline" testId="level-two-decline">
            {copy.decline}
          </PageLink>
        </div>
      </footer>
    </main>
  );
}

/** The prerendered /blackcard-upsell: the whole page is one island, its links aimed once the visitor's query is known. */
function PrerenderedBlackcardUpsellPage() {
  const search = usePageSearch();
  return <BlackcardUpsellPage visitor={readLevelTwoVisitor(new URLSearchParams(search))} />;
}

export const blackcardUpsellIsland = defineIsland('blackcard-upsell', () => <PrerenderedBlackcardUpsellPage />);
