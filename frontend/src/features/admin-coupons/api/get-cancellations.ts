import type { AdminCancellations } from '@contracts/cancellation';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

const cancellationsKey = ['api', 'admin', 'cancellations'] as const satisfies ApiQueryKey;

function getCancellations({ signal }: { signal?: AbortSignal } = {}): Promise<AdminCancellations> {
  return apiGet<AdminCancellations>(cancellationsKey, { signal });
}

const cancellationsQuery = queryOptions({ queryKey: cancellationsKey, queryFn: getCancellations });

export function useCancellations() {
  return useQuery(cancellationsQuery);
}
