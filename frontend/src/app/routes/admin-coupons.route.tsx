import { AdminGate } from '@/features/admin/components/admin-gate';
import { CouponsPage } from '@/features/admin-coupons/components/coupons-page';

export default function AdminCouponsRoute() {
  return (
    <AdminGate>
      <CouponsPage />
    </AdminGate>
  );
}
