import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from './app/app';

/** Build-time only (see vite/prerender-landing.plugin.ts): the landing page's markup for index.html. */
export function renderLanding(): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location="/">
        <App />
      </StaticRouter>
    </StrictMode>,
  );
}
