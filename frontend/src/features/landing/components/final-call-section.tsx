import { CheckoutCta } from '@/components/checkout-cta';
import { finalCall } from '@/content/landing';

export function FinalCallSection() {
  return (
    <section className="section section--dark" aria-labelledby="final-call-heading" data-testid="section-final-call">
      <div className="container">
        <div className="section__header">
          <h2 id="final-call-heading">{finalCall.heading}</h2>
          <p className="section__intro">{finalCall.intro}</p>
        </div>
        <div className="choices">
          <article className="choice choice--wrong">
            <h3>
              <span aria-hidden="true">✕ </span>
              {finalCall.wrong.title}
            </h3>
            <p>{finalCall.wrong.description}</p>
          </article>
          <article className="choice choice--right">
            <h3>
              <span aria-hidden="true">✓ </span>
              {finalCall.right.title}
            </h3>
            <p>{finalCall.right.description}</p>
          </article>
        </div>
        <div className="choices__cta">
          <CheckoutCta testId="cta-final-call">{finalCall.cta}</CheckoutCta>
        </div>
      </div>
    </section>
  );
}
