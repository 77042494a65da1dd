import { account as copy } from '@/content/account';
import { pages } from '@/content/pages';

/**
 * The shell of /account that its document paints before any script runs (app/pages/frames.tsx):
 * the page's heading and its loading line, as AccountPage first renders them. Plain markup.
 */
export function AccountFrame() {
  return (
    <main className="account">
      <div className="account__inner">
        <h1 tabIndex={-1} className="page-heading">
          {pages.account.heading}
        </h1>
        <p className="account__status" role="status">
          {copy.loading}
        </p>
      </div>
    </main>
  );
}
