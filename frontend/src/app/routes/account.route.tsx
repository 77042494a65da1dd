import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { AccountPage } from '@/features/account/components/account-page';
import { pageQuery } from '@/lib/personal-query';

/** /account inside the SPA (reached without a page load): the prerendered page's screen, fed by the router's location. */
export default function AccountRoute() {
  const location = useLocation();
  const token = useMemo(() => pageQuery(location.search).get('token'), [location]);
  return <AccountPage token={token} />;
}
