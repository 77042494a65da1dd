import type { RevenueMode, RevenueReport } from '@contracts/revenue';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

/** Months as YYYY-MM (empty: the server's default, the twelve months up to the last that has ended). */
export interface RevenueRange {
  from: string;
  to: string;
  mode: RevenueMode;
}

/** The query string of a range; empty months are left out (withParams drops them). */
export const revenueParams = (range: RevenueRange) => ({ from: range.from, to: range.to, mode: range.mode });

function getRevenue(range: RevenueRange, signal?: AbortSignal): Promise<RevenueReport> {
  return apiRequest<RevenueReport>('GET', withParams('/api/admin/revenue', revenueParams(range)), { signal });
}

const revenueQuery = (range: RevenueRange) =>
  queryOptions({
    queryKey: ['api', 'admin', 'revenue', range.from, range.to, range.mode],
    queryFn: ({ signal }) => getRevenue(range, signal),
    placeholderData: keepPreviousData,
  });

export function useRevenue(range: RevenueRange) {
  return useQuery(revenueQuery(range));
}
