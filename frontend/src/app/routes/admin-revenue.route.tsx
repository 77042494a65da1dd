import { AdminGate } from '@/features/admin/components/admin-gate';
import { RevenuePage } from '@/features/admin-dashboard/components/revenue-page';

export default function AdminRevenueRoute() {
  return (
    <AdminGate>
      <RevenuePage />
    </AdminGate>
  );
}
