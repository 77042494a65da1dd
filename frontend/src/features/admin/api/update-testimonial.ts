import type { AdminTestimonial, UpdateTestimonialRequest } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminMutation } from './admin-request';
import { testimonialsKey } from './get-testimonials';

export function useUpdateTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateTestimonialRequest }) =>
      adminMutation<AdminTestimonial>(queryClient, 'PATCH', `/api/testimonials/${encodeURIComponent(id)}`, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testimonialsKey, exact: true }),
  });
}
