import { Section } from '@/components/section';
import { testimonialsSection } from '@/content/landing';
import { defineIsland } from '@/lib/islands';
import { useFeaturedTestimonials } from '../api/get-featured-testimonials';
import { TestimonialCard } from './testimonial-card';
import './testimonials.css';

/**
 * Rendered only once featured testimonials have arrived: nothing while loading, on error or when
 * the list is empty (so the prerendered page holds an empty container). The section sits below
 * the fold, so appearing late shifts nothing on screen.
 */
export function TestimonialsSection() {
  const testimonials = useFeaturedTestimonials();
  if (!Array.isArray(testimonials) || testimonials.length === 0) return null;

  return (
    <Section name="testimonials" heading={testimonialsSection.heading} intro={testimonialsSection.intro}>
      <ul className="testimonial-grid">
        {testimonials.map((testimonial) => (
          <TestimonialCard key={testimonial.id} testimonial={testimonial} />
        ))}
      </ul>
      <p className="testimonials__footer">{testimonialsSection.footer}</p>
    </Section>
  );
}

export const testimonialsIsland = defineIsland('testimonials', () => <TestimonialsSection />);
