import { renderToString } from 'react-dom/server';
import { islandPages } from 'virtual:prerendered-pages';
import { IslandMarkup } from './lib/islands';

/** React's resource hints (image preloads) lead a render's output; the prerender moves them into <head>. */
const LEADING_LINKS = /^(?:<link [^>]*>)+/;

/**
 * Build-time only (see vite/prerender-pages.plugin.ts): a page's title and markup for its document,
 * resource hints first. Each island is rendered on its own, exactly as the browser hydrates it.
 */
export function renderPage(name: string): { title: string; markup: string } {
  const page = islandPages[name];
  if (!page) throw new Error(`prerender: no page named ${name}`);
  const hints: string[] = [];
  const markup: Record<string, string> = {};
  for (const island of page.islands) {
    const html = renderToString(island.render());
    const leading = html.match(LEADING_LINKS)?.[0] ?? '';
    hints.push(leading);
    markup[island.name] = html.slice(leading.length);
  }
  const { Document } = page;
  const html = renderToString(
    <IslandMarkup value={markup}>
      <Document />
    </IslandMarkup>,
  );
  return { title: page.title, markup: hints.join('') + html };
}
