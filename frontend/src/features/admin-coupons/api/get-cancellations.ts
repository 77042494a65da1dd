import type { AdminCancellations } from '@contracts/cancellation';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const cancellationsKey = ['api', 'admin', 'cancellations'] as const satisfies ApiQueryKey;

export function getCancellations({ signal }: { signal?: AbortSignal } = {}): Promise<AdminCancellations> {
  return apiGet<AdminCancellations>(cancellationsKey, { signal });
}

export const cancellationsQuery = queryOptions({ queryKey: cancellationsKey, queryFn: getCancellations });

export function useCancellations() {
  return useQuery(cancellationsQuery);
}
