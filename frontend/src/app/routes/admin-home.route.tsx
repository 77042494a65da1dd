import { AdminGate } from '@/features/admin/components/admin-gate';
import { AdminHome } from '@/features/admin/components/admin-home';

export default function AdminHomeRoute() {
  return (
    <AdminGate>
      <AdminHome />
    </AdminGate>
  );
}
