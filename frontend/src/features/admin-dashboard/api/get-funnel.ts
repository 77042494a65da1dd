import type { FunnelReport } from '@contracts/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardGet } from './dashboard-request';

export interface FunnelRange {
  from: string;
  to: string;
}

export function getFunnel(range: FunnelRange, signal?: AbortSignal): Promise<FunnelReport> {
  return dashboardGet<FunnelReport>('/api/admin/funnel', { ...range }, signal);
}

export const funnelQuery = (range: FunnelRange) =>
  queryOptions({
    queryKey: ['api', 'admin', 'funnel', range.from, range.to],
    queryFn: ({ signal }) => getFunnel(range, signal),
    placeholderData: keepPreviousData,
  });

export function useFunnel(range: FunnelRange) {
  return useQuery(funnelQuery(range));
}
