import type { FeaturedTestimonial } from '@contracts/api-types';
import { useEffect, useState } from 'react';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

const featuredTestimonialsKey = ['api', 'testimonials', 'featured'] as const satisfies ApiQueryKey;

function getFeaturedTestimonials({ signal }: { signal?: AbortSignal } = {}): Promise<FeaturedTestimonial[]> {
  return apiGet<FeaturedTestimonial[]>(featuredTestimonialsKey, { signal });
}

/**
 * One read when the section mounts, without the query library: the section is an island of the
 * prerendered landing page, which ships no react-query. Undefined while loading and after a
 * failure, which the section treats alike (it stays hidden).
 */
export function useFeaturedTestimonials(): FeaturedTestimonial[] | undefined {
  const [testimonials, setTestimonials] = useState<FeaturedTestimonial[]>();
  useEffect(() => {
    const controller = new AbortController();
    getFeaturedTestimonials({ signal: controller.signal }).then(setTestimonials, (error: unknown) => {
      if (!controller.signal.aborted) console.warn('Featured testimonials could not be loaded', error);
    });
    return () => controller.abort();
  }, []);
  return testimonials;
}
