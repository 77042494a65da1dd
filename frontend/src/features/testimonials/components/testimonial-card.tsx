import type { FeaturedTestimonial } from '@contracts/api-types';
import { testimonialsSection } from '@/content/landing';
import { toSafeHttpUrl } from '@/lib/safe-url';
import { StarRating } from './star-rating';

/** Admin-entered data is rendered as text only, and only http(s) URLs reach href or src. */
export function TestimonialCard({ testimonial }: { testimonial: FeaturedTestimonial }) {
  const videoUrl = toSafeHttpUrl(testimonial.videoUrl);
  const imageUrl = toSafeHttpUrl(testimonial.imageUrl);
  return (
    <li className="card testimonial" data-testid="testimonial">
      {videoUrl ? (
        <a className="testimonial__thumb" href={videoUrl} target="_blank" rel="noopener noreferrer">
          {imageUrl ? <img src={imageUrl} width={640} height={360} alt="" loading="lazy" decoding="async" /> : null}
          <span className="testimonial__play" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="24" height="24" focusable="false">
              <path d="M8 5v14l11-7z" fill="currentColor" />
            </svg>
          </span>
          <span className="visually-hidden">{testimonialsSection.watchLabel(testimonial.name)}</span>
        </a>
      ) : null}
      <StarRating rating={testimonial.rating} />
      <blockquote className="testimonial__quote">
        <p>{testimonial.content}</p>
      </blockquote>
      <p className="testimonial__name">{testimonial.name}</p>
      <p className="testimonial__title">{testimonial.title}</p>
    </li>
  );
}
