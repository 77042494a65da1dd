import type { AdminTestimonial, CreateTestimonialRequest } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminMutation } from './admin-request';
import { testimonialsKey } from './get-testimonials';

export function useCreateTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTestimonialRequest) => adminMutation<AdminTestimonial>(queryClient, 'POST', '/api/testimonials', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testimonialsKey, exact: true }),
  });
}
