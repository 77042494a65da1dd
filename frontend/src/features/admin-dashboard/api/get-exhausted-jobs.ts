import type { ExhaustedJobList } from '@contracts/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const exhaustedJobsKey = ['api', 'admin', 'exhausted-jobs'] as const;

function getExhaustedJobs(signal?: AbortSignal): Promise<ExhaustedJobList> {
  return apiRequest<ExhaustedJobList>('GET', '/api/admin/exhausted-jobs', { signal });
}

const exhaustedJobsQuery = () => queryOptions({ queryKey: exhaustedJobsKey, queryFn: ({ signal }) => getExhaustedJobs(signal) });

export function useExhaustedJobs() {
  return useQuery(exhaustedJobsQuery());
}
