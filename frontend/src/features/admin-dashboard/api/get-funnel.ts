import type { FunnelReport } from '@contracts/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

export interface FunnelRange {
  from: string;
  to: string;
}

function getFunnel(range: FunnelRange, signal?: AbortSignal): Promise<FunnelReport> {
  return apiRequest<FunnelReport>('GET', withParams('/api/admin/funnel', { ...range }), { signal });
}

const funnelQuery = (range: FunnelRange) =>
  queryOptions({
    queryKey: ['api', 'admin', 'funnel', range.from, range.to],
    queryFn: ({ signal }) => getFunnel(range, signal),
    placeholderData: keepPreviousData,
  });

export function useFunnel(range: FunnelRange) {
  return useQuery(funnelQuery(range));
}
