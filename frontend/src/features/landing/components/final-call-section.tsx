import { CheckoutCta } from '@/components/checkout-cta';
import { Section } from '@/components/section';
import { finalCall } from '@/content/landing-sections';

export function FinalCallSection() {
  return (
    <Section name="final-call" heading={finalCall.heading} intro={finalCall.intro} variant="dark">
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
    </Section>
  );
}
