import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function SuccessRoute() {
  return <PlaceholderScreen heading={pages.success.heading} />;
}
