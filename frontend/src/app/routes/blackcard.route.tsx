import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { BlackcardPage } from '@/features/blackcard/components/blackcard-page';

export default function BlackcardRoute() {
  const { search } = useLocation();
  // The query the visit started with: the access check reads its token once.
  const [initial] = useState(search);
  return <BlackcardPage search={initial} />;
}
