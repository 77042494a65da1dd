import { useAdminSession } from '@/features/admin/api/get-admin-session';
import { AdminGate } from '@/features/admin/components/admin-gate';
import { SandboxClockPage } from '@/features/admin-sandbox/components/sandbox-clock-page';

/** The gate has loaded the session; it names the provider the screen depends on. */
function SandboxClockScreen() {
  const session = useAdminSession();
  return <SandboxClockPage provider={session.data?.paymentProvider} />;
}

export default function AdminSandboxClockRoute() {
  return (
    <AdminGate>
      <SandboxClockScreen />
    </AdminGate>
  );
}
