import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function BlackcardRoute() {
  return <PlaceholderScreen heading={pages.blackcard.heading} />;
}
