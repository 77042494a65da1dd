import { PageHeading } from '@/components/page-heading';
import { PageLink } from '@/components/page-link';
import { externalLinks } from '@/content/config';
import { success as copy } from '@/content/success';
import { ExternalLink } from './external-link';

/**
 * The prerendered page's first paint, until the payment is verified. Its line is set large: the
 * largest text of the first paint, which no later view outgrows, so the page's Largest Contentful
 * Paint is its HTML's and not the result's (success.css).
 */
export function LoadingView() {
  return (
    <main className="screen">
      <div className="screen__card success__status success__status--loading" role="status" data-testid="success-loading">
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
          <a href="/" className="button button--secondary">
            {copy.backToHome}
          </a>
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
        <a href="/" className="button button--secondary">
          {copy.returnToHome}
        </a>
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
          <PageLink to={retryHref} className="button button--cta">
            {copy.incomplete.retry}
          </PageLink>
          <a href="/" className="button button--secondary">
            {copy.returnToHome}
          </a>
        </div>
      </div>
    </main>
  );
}
