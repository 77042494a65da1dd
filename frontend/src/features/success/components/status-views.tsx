import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { externalLinks } from '@/content/config';
import { success as copy } from '@/content/success';
import { ExternalLink } from './external-link';

export function LoadingView() {
  return (
    <main className="screen">
      <div className="screen__card success__status" role="status" data-testid="success-loading">
        <span className="spinner" aria-hidden="true" />
        <PageHeading>{copy.loading.heading}</PageHeading>
        <p>{copy.loading.body}</p>
      </div>
    </main>
  );
}

export function AllSetView({ vip }: { vip: boolean }) {
  return (
    <main className="screen">
      <div className="screen__card success__status" data-testid="success-all-set">
        <PageHeading>{copy.allSet.heading}</PageHeading>
        <p>{copy.allSet.body(vip ? copy.allSet.vipCommunity : copy.allSet.programCommunity)}</p>
        <div className="success__actions">
          <ExternalLink href={externalLinks.programApp} className="button button--cta">
            {copy.allSet.access}
          </ExternalLink>
          <Link to="/" className="button button--secondary">
            {copy.backToHome}
          </Link>
        </div>
      </div>
    </main>
  );
}

export function VerificationFailedView() {
  return (
    <main className="screen">
      <div className="screen__card success__status" role="alert" data-testid="success-failed">
        <PageHeading>{copy.failed.heading}</PageHeading>
        <p>{copy.failed.body}</p>
        <Link to="/" className="button button--secondary">
          {copy.returnToHome}
        </Link>
      </div>
    </main>
  );
}

export function IncompleteView({ status, retryHref }: { status: string; retryHref: string }) {
  return (
    <main className="screen">
      <div className="screen__card success__status" data-testid="success-incomplete">
        <PageHeading>{copy.incomplete.heading}</PageHeading>
        <p>{copy.incomplete.body}</p>
        <p className="success__status-line" data-testid="payment-status">
          {copy.incomplete.status(status)}
        </p>
        <div className="success__actions">
          <Link to={retryHref} className="button button--cta">
            {copy.incomplete.retry}
          </Link>
          <Link to="/" className="button button--secondary">
            {copy.returnToHome}
          </Link>
        </div>
      </div>
    </main>
  );
}
