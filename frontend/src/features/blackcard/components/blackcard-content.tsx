import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { blackcard as copy } from '@/content/blackcard';
import { RevealSection } from './reveal';

/** The mechanism: the steps of the method, each with the domains it works on. */
function BlackcardMechanism() {
  return (
    <RevealSection name="mechanism" labelledBy="blackcard-mechanism-heading" className="blackcard__section blackcard__section--raised">
      <div className="container">
        <h2 id="blackcard-mechanism-heading">{copy.mechanism.heading}</h2>
        <p className="blackcard__intro">{copy.mechanism.intro}</p>
        <ol className="blackcard__steps">
          {copy.mechanism.steps.map((step, index) => (
            <li key={step.title} className="blackcard__step">
              <span className="blackcard__step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.body}</p>
              {step.domains.length > 0 ? (
                <ul className="blackcard__domains" aria-label={copy.mechanism.domainsLabel}>
                  {step.domains.map((domain) => (
                    <li key={domain}>{domain}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      </div>
    </RevealSection>
  );
}

/** The path: the levels a member climbs, with what each costs. */
function BlackcardPath() {
  return (
    <RevealSection name="path" labelledBy="blackcard-path-heading" className="blackcard__section">
      <div className="container">
        <h2 id="blackcard-path-heading">{copy.path.heading}</h2>
        <p className="blackcard__intro">{copy.path.intro}</p>
        <ul className="blackcard__tiers">
          {copy.path.tiers.map((tier) => (
            <li key={tier.level} className="blackcard__tier" data-testid="blackcard-tier">
              <p className="blackcard__tier-level">{tier.level}</p>
              <h3>{tier.title}</h3>
              <p className="blackcard__tier-label">{tier.label}</p>
              {tier.price ? <p className="blackcard__tier-price">{tier.price}</p> : null}
              <p className="blackcard__tier-note">{tier.note}</p>
            </li>
          ))}
        </ul>
      </div>
    </RevealSection>
  );
}

/** What members say. */
function BlackcardTestimonials() {
  return (
    <RevealSection
      name="testimonials"
      labelledBy="blackcard-testimonials-heading"
      className="blackcard__section blackcard__section--raised"
    >
      <div className="container">
        <h2 id="blackcard-testimonials-heading">{copy.testimonials.heading}</h2>
        <ul className="blackcard__quotes">
          {copy.testimonials.quotes.map((item) => (
            <li key={item.name}>
              <figure className="blackcard__quote">
                <blockquote>
                  <p>{item.quote}</p>
                </blockquote>
                <figcaption>{item.name}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </RevealSection>
  );
}

/** The invite-only page's content (spec section 2, /blackcard), in page order. */
export function BlackcardContent({ checkoutHref }: { checkoutHref: string }) {
  return (
    <>
      <main className="blackcard">
        <header className="blackcard__hero" data-testid="blackcard-hero">
          <div className="container container--narrow">
            <p className="blackcard__eyebrow">{copy.hero.eyebrow}</p>
            <PageHeading className="blackcard__stamp">{copy.hero.heading}</PageHeading>
            <p className="blackcard__lead">{copy.hero.body}</p>
            <PageLink to={checkoutHref} className="button button--cta blackcard__cta" testId="blackcard-hero-cta">
              {copy.hero.cta}
            </PageLink>
          </div>
        </header>

        <RevealSection name="level-one" labelledBy="blackcard-level-one-heading" className="blackcard__section">
          <div className="container container--narrow">
            <h2 id="blackcard-level-one-heading">{copy.levelOne.heading}</h2>
            <p>{copy.levelOne.body}</p>
            <ul className="blackcard__points">
              {copy.levelOne.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </div>
        </RevealSection>

        <BlackcardMechanism />

        <BlackcardPath />

        <BlackcardTestimonials />

        <RevealSection
          name="final-call"
          labelledBy="blackcard-final-heading"
          variant="stamp"
          className="blackcard__section blackcard__final"
        >
          <div className="container container--narrow">
            <h2 id="blackcard-final-heading">{copy.finalCall.heading}</h2>
            <p>{copy.finalCall.body}</p>
            <PageLink to={checkoutHref} className="button button--cta blackcard__cta" testId="blackcard-final-cta">
              {copy.finalCall.cta}
            </PageLink>
          </div>
        </RevealSection>
      </main>
      <footer className="blackcard__footer">
        <div className="container">
          <p>{copy.footer.note}</p>
          <p>{copy.footer.copyright}</p>
        </div>
      </footer>
    </>
  );
}
