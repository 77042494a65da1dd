import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';
import { testimonialsKey } from './get-testimonials';

export function useDeleteTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminRequest<void>(queryClient, 'DELETE', `/api/testimonials/${encodeURIComponent(id)}`),
    // A 404 (already deleted elsewhere) also means the list is out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: testimonialsKey, exact: true }),
  });
}
