import { AdminGate } from '@/features/admin/components/admin-gate';
import { TestimonialManager } from '@/features/admin/components/testimonial-manager';

export default function AdminTestimonialsRoute() {
  return (
    <AdminGate>
      <TestimonialManager />
    </AdminGate>
  );
}
