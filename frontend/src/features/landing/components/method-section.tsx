import { methodSection } from '@/content/landing';

export function MethodSection() {
  return (
    <section className="section section--alt" aria-labelledby="method-heading" data-testid="section-method">
      <div className="container">
        <div className="section__header">
          <h2 id="method-heading">{methodSection.heading}</h2>
          <p className="section__intro">{methodSection.intro}</p>
        </div>
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
      </div>
    </section>
  );
}
