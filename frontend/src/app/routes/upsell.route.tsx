import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function UpsellRoute() {
  return <PlaceholderScreen heading={pages.upsell.heading} />;
}
