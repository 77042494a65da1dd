import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { adminShell as copy } from '@/content/admin';
import { common } from '@/content/pages';
import { loginPathFor } from '../admin-next';
import { useAdminSession } from '../api/get-admin-session';
import { AdminLayout } from './admin-layout';
import '../admin.css';

/** Shows an admin page only with a session; without one, the sign-in page, which comes back here. */
export function AdminGate({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  const location = useLocation();

  if (session.isPending) {
    return (
      <div className="screen" role="status">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{common.routeLoading}</span>
      </div>
    );
  }
  if (session.isError) {
    return (
      <main className="screen">
        <div className="screen__card" role="alert">
          <p>{copy.sessionLoadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
            {copy.reload}
          </button>
        </div>
      </main>
    );
  }
  if (!session.data) return <Navigate replace to={loginPathFor(location)} />;
  return <AdminLayout email={session.data.email}>{children}</AdminLayout>;
}
