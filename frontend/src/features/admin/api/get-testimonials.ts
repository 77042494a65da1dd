import type { AdminTestimonial } from '@contracts/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const testimonialsKey = ['api', 'testimonials'] as const satisfies ApiQueryKey;

function getTestimonials({ signal }: { signal?: AbortSignal } = {}): Promise<AdminTestimonial[]> {
  return apiGet<AdminTestimonial[]>(testimonialsKey, { signal });
}

const testimonialsQuery = queryOptions({
  queryKey: testimonialsKey,
  queryFn: getTestimonials,
});

export function useTestimonials() {
  return useQuery(testimonialsQuery);
}
