import { salesLetter } from '@/content/landing';
import { Island } from '@/lib/islands';
import { salesLetterVideoIsland } from './sales-letter-video';

export function SalesLetterSection() {
  return (
    <section className="section section--dark" aria-labelledby="sales-letter-heading" data-testid="section-sales-letter">
      <div className="container container--narrow section__header">
        <h2 id="sales-letter-heading">{salesLetter.heading}</h2>
        <p className="section__intro">{salesLetter.intro}</p>
      </div>
      <div className="container container--narrow">
        <Island of={salesLetterVideoIsland} />
        <p className="video-duration">{salesLetter.duration}</p>
      </div>
    </section>
  );
}
