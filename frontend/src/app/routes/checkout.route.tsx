import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';
import { readCheckoutHandOff, readSetupReturn } from '@/features/checkout/checkout-hand-off';

export default function CheckoutRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const { search } = useLocation();
  const handOff = useMemo(() => readCheckoutHandOff(new URLSearchParams(search)), [search]);
  const setupReturn = useMemo(() => readSetupReturn(new URLSearchParams(search)), [search]);
  // A new query string is a new checkout attempt (another plan, or a retry after authentication failed).
  return <CheckoutPage key={search} handOff={handOff} setupReturn={setupReturn} />;
}
