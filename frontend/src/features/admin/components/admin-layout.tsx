import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ROUTES } from '@contracts/routes';
import { adminShell as copy } from '@/content/admin';
import { useAdminLogout } from '../api/admin-logout';

export function AdminLayout({ email, children }: { email: string; children: ReactNode }) {
  const logout = useAdminLogout();
  return (
    <div className="admin">
      <header className="admin__bar">
        <nav aria-label={copy.navLabel}>
          <Link to={ROUTES.admin} className="admin__home">
            {copy.home}
          </Link>
        </nav>
        <div className="admin__account">
          <span className="admin__email">
            {copy.signedInAs} <strong>{email}</strong>
          </span>
          <button
            type="button"
            className="admin-button"
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            data-testid="admin-sign-out"
          >
            {logout.isPending ? copy.signingOut : copy.signOut}
          </button>
        </div>
      </header>
      <main className="admin__main">{children}</main>
    </div>
  );
}
