import { AdminGate } from '@/features/admin/components/admin-gate';
import { OrdersPage } from '@/features/admin-orders/components/orders-page';

export default function AdminOrdersRoute() {
  return (
    <AdminGate>
      <OrdersPage />
    </AdminGate>
  );
}
