import { Section } from '@/components/section';
import { methodSection } from '@/content/landing-sections';

export function MethodSection() {
  return (
    <Section name="method" heading={methodSection.heading} intro={methodSection.intro} variant="alt">
      <ol className="method-steps">
        {methodSection.steps.map((step) => (
          <li key={step.title} className="method-step" data-testid="method-step">
            <span className="method-step__letter" aria-hidden="true">
              {step.letter}
            </span>
            <h3>{step.title}</h3>
            <p>{step.description}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
