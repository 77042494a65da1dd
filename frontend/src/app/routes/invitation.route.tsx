import { InvitationPage } from '@/features/invitation/components/invitation-page';

export default function InvitationRoute() {
  return <InvitationPage />;
}
