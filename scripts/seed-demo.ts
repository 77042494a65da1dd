import { TestimonialRepository } from '@core/database/repositories/testimonial.repository';
import { withDataSource } from './lib/data-source';

/** Demo rows for a fresh `npm start`: marked as demo so nobody mistakes them for real members. */
const DEMO_TESTIMONIALS = [
  {
    name: 'Sample Member A (demo)',
    title: 'Entrepreneur — demo testimonial',
    content:
      'Demo testimonial. Within the first month my mornings changed: one clear intention a day, one aligned action. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: null,
    rating: 5,
  },
  {
    name: 'Sample Member B (demo)',
    title: 'Nurse and mother of two — demo testimonial',
    content: 'Demo testimonial. The weekly calls kept me honest and the community kept me going. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    rating: 5,
  },
  {
    name: 'Sample Member C (demo)',
    title: 'Sales manager — demo testimonial',
    content: 'Demo testimonial. I finally stopped planning and started acting. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: null,
    rating: 4,
  },
];

/** Seeds once per database (remembered in seed_runs), so deleting a demo row keeps it deleted. */
export function seedDemoTestimonials(url: string): Promise<boolean> {
  return withDataSource(url, (dataSource) => new TestimonialRepository(dataSource).seedOnce('demo-testimonials', DEMO_TESTIMONIALS));
}
