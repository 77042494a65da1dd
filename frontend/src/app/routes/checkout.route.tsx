import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';
import { readCheckoutHandOff, readSetupReturn } from '@/features/checkout/checkout-hand-off';
import { pageQuery } from '@/lib/personal-query';

export default function CheckoutRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const location = useLocation();
  const params = useMemo(() => pageQuery(location.search), [location]);
  const handOff = useMemo(() => readCheckoutHandOff(params), [params]);
  const setupReturn = useMemo(() => readSetupReturn(params), [params]);
  // Each navigation here is a new checkout attempt (another plan, or a retry after authentication
  // failed); the address alone cannot tell them apart, as e-mail and name are not in it.
  return <CheckoutPage key={location.key} handOff={handOff} setupReturn={setupReturn} />;
}
