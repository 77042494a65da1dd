import { movement } from '@/content/landing';
import { CardGrid } from './card-grid';

export function MovementSection() {
  return (
    <section className="section" aria-labelledby="movement-heading" data-testid="section-movement">
      <div className="container">
        <div className="section__header">
          <h2 id="movement-heading">{movement.heading}</h2>
          <p className="section__intro">{movement.intro}</p>
        </div>
        <CardGrid cards={movement.cards} columns={3} />
      </div>
    </section>
  );
}
