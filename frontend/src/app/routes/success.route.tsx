import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { SuccessPage } from '@/features/success/components/success-page';
import { readSuccessHandOff } from '@/features/success/success-hand-off';
import { pageQuery } from '@/lib/personal-query';

/** /success inside the SPA (reached from checkout without a page load): the prerendered page's screen, fed by the router's location. */
export default function SuccessRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const location = useLocation();
  const handOff = useMemo(() => readSuccessHandOff(pageQuery(location.search)), [location]);
  return <SuccessPage key={location.key} handOff={handOff} />;
}
