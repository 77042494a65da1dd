import type { ReactNode } from 'react';

/** The loading, failed and empty states every dashboard panel shares. */
export function LoadState({
  pending,
  error,
  empty,
  loadingText,
  errorText,
  emptyText,
  retryText,
  onRetry,
  children,
}: {
  pending: boolean;
  error: boolean;
  empty: boolean;
  loadingText: string;
  errorText: string;
  emptyText: string;
  retryText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (pending) {
    return (
      <p className="dash-state" role="status">
        <span className="spinner" aria-hidden="true" /> {loadingText}
      </p>
    );
  }
  if (error) {
    return (
      <div className="dash-state" role="alert">
        <p>{errorText}</p>
        <button type="button" className="admin-button" onClick={onRetry}>
          {retryText}
        </button>
      </div>
    );
  }
  if (empty) return <p className="dash-state">{emptyText}</p>;
  return children;
}
