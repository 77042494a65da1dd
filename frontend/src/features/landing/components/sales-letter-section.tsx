import { VideoFacade } from '@/components/video-facade';
import { salesLetter } from '@/content/landing';
import { salesLetterVideo } from '@/content/media';

export function SalesLetterSection() {
  return (
    <section className="section section--dark" aria-labelledby="sales-letter-heading" data-testid="section-sales-letter">
      <div className="container container--narrow section__header">
        <h2 id="sales-letter-heading">{salesLetter.heading}</h2>
        <p className="section__intro">{salesLetter.intro}</p>
      </div>
      <div className="container container--narrow">
        <VideoFacade video={salesLetterVideo} title={salesLetter.heading} playLabel={salesLetter.playLabel} />
        <p className="video-duration">{salesLetter.duration}</p>
      </div>
    </section>
  );
}
