import { testimonialsSection } from '@/content/landing';

const MAX_STARS = 5;

export function StarRating({ rating }: { rating: number }) {
  const stars = Math.min(MAX_STARS, Math.max(0, Math.round(rating)));
  return (
    <p className="stars" role="img" aria-label={testimonialsSection.ratingLabel(stars, MAX_STARS)}>
      {Array.from({ length: stars }, (_, index) => (
        <svg key={index} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" data-testid="star">
          <path d="M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z" fill="currentColor" />
        </svg>
      ))}
    </p>
  );
}
