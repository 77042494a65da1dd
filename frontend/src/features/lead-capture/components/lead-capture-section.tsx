import { leadCapture as copy } from '@/content/landing';
import { Island } from '@/lib/islands';
import { CHECKOUT_SECTION_ID } from '@/lib/landing-anchors';
import { leadFormIsland } from './lead-form';

/** The landing page's last section: static copy around the lead form island. */
export function LeadCaptureSection() {
  return (
    <section
      id={CHECKOUT_SECTION_ID}
      className="section section--alt lead"
      aria-labelledby="lead-heading"
      data-testid="section-lead-capture"
    >
      <div className="container container--form">
        <div className="section__header">
          <h2 id="lead-heading">{copy.heading}</h2>
          <p className="section__intro">{copy.intro}</p>
        </div>
        <Island of={leadFormIsland} />
      </div>
    </section>
  );
}
