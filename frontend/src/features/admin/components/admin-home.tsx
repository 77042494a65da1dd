import { Link } from 'react-router-dom';
import { ADMIN_ROUTES } from '@contracts/route-table';
import { PageHeading } from '@/components/page-heading';
import { adminHome as copy } from '@/content/admin';
import { pages } from '@/content/pages';
import { useAdminSession } from '../api/get-admin-session';

/** The queue dashboard is served by the API itself, so it is a plain link (a full page load). */
const QUEUES_PATH = '/admin/queues';
const LINKS = {
  orders: ADMIN_ROUTES.orders,
  coupons: ADMIN_ROUTES.coupons,
  revenue: ADMIN_ROUTES.revenue,
  testimonials: ADMIN_ROUTES.testimonials,
  'sandbox-clock': ADMIN_ROUTES.sandboxClock,
};

export function AdminHome() {
  // The sandbox clock exists only while the sandbox takes the payments.
  const sandbox = useAdminSession().data?.paymentProvider === 'sandbox';
  const links = copy.links.filter((link) => link.key !== 'sandbox-clock' || sandbox);
  return (
    <div className="admin__page">
      <PageHeading>{pages.admin.heading}</PageHeading>
      <p>{copy.intro}</p>
      <ul className="admin-home__links">
        {links.map((link) => (
          <li key={link.key} className="admin-card">
            {link.key === 'queues' ? (
              <a href={QUEUES_PATH}>{link.label}</a>
            ) : (
              <Link to={LINKS[link.key as keyof typeof LINKS] ?? ADMIN_ROUTES.testimonials}>{link.label}</Link>
            )}
            <p>{link.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
