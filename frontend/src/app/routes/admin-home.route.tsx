import { AdminGate } from '@/features/admin/components/admin-gate';
import { AdminHome } from '@/features/admin/components/admin-home';
import { FunnelDashboard } from '@/features/admin-dashboard/components/funnel-dashboard';

export default function AdminHomeRoute() {
  return (
    <AdminGate>
      <AdminHome />
      <FunnelDashboard />
    </AdminGate>
  );
}
