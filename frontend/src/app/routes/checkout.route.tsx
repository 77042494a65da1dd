import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function CheckoutRoute() {
  return <PlaceholderScreen heading={pages.checkout.heading} />;
}
