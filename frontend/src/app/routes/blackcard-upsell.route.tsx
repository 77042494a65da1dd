import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { BlackcardUpsellPage } from '@/features/blackcard-upsell/components/blackcard-upsell-page';
import { readLevelTwoVisitor } from '@/features/blackcard-upsell/blackcard-upsell-hand-off';

export default function BlackcardUpsellRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const { search } = useLocation();
  const visitor = useMemo(() => readLevelTwoVisitor(new URLSearchParams(search)), [search]);
  return <BlackcardUpsellPage visitor={visitor} />;
}
