import { whyOnly } from '@/content/landing-sections';

export function WhyOnlySection() {
  return (
    <section className="section" aria-labelledby="why-only-heading" data-testid="section-why-only">
      <div className="container container--narrow prose">
        <h2 id="why-only-heading">{whyOnly.heading}</h2>
        {whyOnly.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </section>
  );
}
