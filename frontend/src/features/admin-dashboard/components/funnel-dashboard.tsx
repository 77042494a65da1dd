import { AuditSection } from './audit-section';
import { ExhaustedJobsSection } from './exhausted-jobs-section';
import { FunnelSection } from './funnel-section';
import { PersonSection } from './person-section';
import { RecordsSection } from './records-section';
import '../dashboard.css';

/** The operations part of /admin, below the links to the other admin pages. */
export function FunnelDashboard() {
  return (
    <div className="dash">
      <FunnelSection />
      <RecordsSection kind="leads" />
      <RecordsSection kind="orders" />
      <RecordsSection kind="members" />
      <PersonSection />
      <ExhaustedJobsSection />
      <AuditSection />
    </div>
  );
}
