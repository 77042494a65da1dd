import type { FeaturedTestimonial } from '@contracts/api-types';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const featuredTestimonialsKey = ['api', 'testimonials', 'featured'] as const satisfies ApiQueryKey;

export function getFeaturedTestimonials({ signal }: { signal?: AbortSignal } = {}): Promise<FeaturedTestimonial[]> {
  return apiGet<FeaturedTestimonial[]>(featuredTestimonialsKey, { signal });
}

export const featuredTestimonialsQuery = queryOptions({
  queryKey: featuredTestimonialsKey,
  queryFn: getFeaturedTestimonials,
});

export function useFeaturedTestimonials() {
  return useQuery(featuredTestimonialsQuery);
}
