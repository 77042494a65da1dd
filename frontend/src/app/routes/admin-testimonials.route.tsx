import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function AdminTestimonialsRoute() {
  return <PlaceholderScreen heading={pages.adminTestimonials.heading} />;
}
