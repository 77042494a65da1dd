import type { AdminTestimonial, UpdateTestimonialRequest } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';
import { testimonialsKey } from './get-testimonials';

export function useUpdateTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateTestimonialRequest }) =>
      adminRequest<AdminTestimonial>(queryClient, 'PATCH', `/api/testimonials/${encodeURIComponent(id)}`, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testimonialsKey, exact: true }),
  });
}
