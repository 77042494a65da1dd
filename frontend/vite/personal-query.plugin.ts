import { minify } from 'terser';
import type { Plugin } from 'vite';
import { guardPersonalQuery, PERSONAL_QUERY } from '../src/lib/personal-query-guard';

/** Where a page's HTML asks for the guard: the public pages' head, before anything else runs. */
const PLACEHOLDER = '<!-- personal-query-guard -->';

/**
 * Writes src/lib/personal-query-guard.ts into the pages that ask for it, as a classic inline
 * script: it runs as the parser reaches it, before any module script (all of the page's own code,
 * and through it every analytics, pixel and affiliate script). The server's CSP allows it by its
 * hash, which it reads from the built pages (backend/src/common/spa.ts).
 */
export function inlinePersonalQueryGuard(): Plugin {
  let script: Promise<string> | undefined;
  return {
    name: 'clear:personal-query-guard',
    async transformIndexHtml(html) {
      if (!html.includes(PLACEHOLDER)) return html;
      // Terser: Vite 8 no longer ships esbuild to minify a lone script.
      script ??= minify(`(${guardPersonalQuery.toString()})(${JSON.stringify(PERSONAL_QUERY)});`).then((result) =>
        (result.code ?? '').trim(),
      );
      return html.replace(PLACEHOLDER, `<script>${await script}</script>`);
    },
  };
}
