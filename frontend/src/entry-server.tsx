import { renderToString } from 'react-dom/server';
import { LandingDocument } from './app/landing/landing-document';
import { landingIslands } from './app/landing/landing-islands';
import { IslandMarkup } from './lib/islands';

/** React's resource hints (image preloads) lead a render's output; the prerender moves them into <head>. */
const LEADING_LINKS = /^(?:<link [^>]*>)+/;

/**
 * Build-time only (see vite/prerender-landing.plugin.ts): the landing page's markup for index.html,
 * resource hints first. Each island is rendered on its own, exactly as the browser hydrates it.
 */
export function renderLanding(): string {
  const hints: string[] = [];
  const markup: Record<string, string> = {};
  for (const island of landingIslands) {
    const html = renderToString(island.render());
    const leading = html.match(LEADING_LINKS)?.[0] ?? '';
    hints.push(leading);
    markup[island.name] = html.slice(leading.length);
  }
  const page = renderToString(
    <IslandMarkup value={markup}>
      <LandingDocument />
    </IslandMarkup>,
  );
  return hints.join('') + page;
}
