import type { AdminTestimonial, CreateTestimonialRequest } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';
import { testimonialsKey } from './get-testimonials';

export function useCreateTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTestimonialRequest) => adminRequest<AdminTestimonial>(queryClient, 'POST', '/api/testimonials', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testimonialsKey, exact: true }),
  });
}
