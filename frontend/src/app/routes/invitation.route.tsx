import { PlaceholderScreen } from '@/components/placeholder-screen';
import { pages } from '@/content/pages';

export default function InvitationRoute() {
  return <PlaceholderScreen heading={pages.invitation.heading} />;
}
