import { benefits } from '@/content/landing';
import { CardGrid } from './card-grid';

export function BenefitsSection() {
  return (
    <section className="section" aria-labelledby="benefits-heading" data-testid="section-benefits">
      <div className="container">
        <div className="section__header">
          <h2 id="benefits-heading">{benefits.heading}</h2>
        </div>
        <CardGrid cards={benefits.cards} columns={4} />
      </div>
    </section>
  );
}
