import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { UpsellPage } from '@/features/upsell/components/upsell-page';
import { readUpsellVisitor } from '@/features/upsell/upsell-hand-off';

export default function UpsellRoute() {
  // useLocation rather than useSearchParams: the landing chunk already carries it (its size is budgeted).
  const { search } = useLocation();
  const visitor = useMemo(() => readUpsellVisitor(new URLSearchParams(search)), [search]);
  return <UpsellPage visitor={visitor} />;
}
