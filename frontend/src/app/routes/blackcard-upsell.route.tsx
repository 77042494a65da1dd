import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function BlackcardUpsellRoute() {
  return <PlaceholderScreen heading={pages.blackcardUpsell.heading} />;
}
