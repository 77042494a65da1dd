import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app';

/** Renders the SPA into `container` at the current URL. */
export function renderSpa(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
}

/**
 * A prerendered page hands over to the SPA (a client-side navigation, no page load): its islands
 * are unmounted, the page's markup makes way, and the SPA renders `path`. The new route's heading
 * takes focus as on any SPA navigation (components/page-heading.tsx).
 */
export function openSpa(path: string, islands: readonly Root[], { replace = false }: { replace?: boolean } = {}): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  islands.forEach((island) => island.unmount());
  container.replaceChildren();
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.scrollTo(0, 0);
  renderSpa(container);
}
