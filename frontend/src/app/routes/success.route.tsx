import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { SuccessPage } from '@/features/success/components/success-page';
import { readSuccessHandOff } from '@/features/success/success-hand-off';

export default function SuccessRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const { search } = useLocation();
  const handOff = useMemo(() => readSuccessHandOff(new URLSearchParams(search)), [search]);
  return <SuccessPage key={search} handOff={handOff} />;
}
