import { Component, type ErrorInfo, type ReactNode } from 'react';
import { common } from '@/content/pages';

interface State {
  failed: boolean;
}

/** Catches a screen that failed to load or render (typically a chunk lost to a deploy) and offers a reload. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Route failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="screen">
        <div className="screen__card" role="alert">
          <h1>{common.routeError.heading}</h1>
          <p>{common.routeError.body}</p>
          <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
            {common.routeError.reload}
          </button>
        </div>
      </main>
    );
  }
}
