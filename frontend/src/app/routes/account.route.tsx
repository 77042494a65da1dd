import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { AccountPage } from '@/features/account/components/account-page';
import { pageQuery } from '@/lib/personal-query';

export default function AccountRoute() {
  const location = useLocation();
  const token = useMemo(() => pageQuery(location.search).get('token'), [location]);
  return <AccountPage token={token} />;
}
