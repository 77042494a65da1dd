import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { documentHead } from './src/content/brand';
import { compileHints } from './vite/compile-hints.plugin';
import { inlinePersonalQueryGuard } from './vite/personal-query.plugin';
import { BLACKCARD_GRANT } from '../backend/src/contracts/blackcard-grant';
import { injectDocumentHead, prerenderPages, previewSpaShell, type PrerenderedPage } from './vite/prerender-pages.plugin';

// Tests build variants (e.g. with analytics ids) into a temporary WEB_OUT_DIR, leaving dist/ alone;
// the prerender step's throwaway SSR bundle then stays under node_modules so its imports resolve.
const variantOutDir = process.env.WEB_OUT_DIR;
const clientOutDir = variantOutDir || 'dist';
const ssrOutDir = variantOutDir ? `node_modules/.cache/prerender-${process.pid}` : 'dist-ssr';

/**
 * The pages whose HTML the build renders (src/entry-server.tsx): every page a buyer sees ships its
 * markup and hydrates only its islands. The screens that depend on the visitor (/checkout,
 * /success, /account) are prerendered as they stand before the visitor is known. The server picks
 * a page's document by its route (backend/src/contracts/routes.ts, `prerenderedDocument`).
 */
const PAGES = ['invitation', 'blackcard', 'upsell', 'blackcard-upsell', 'checkout', 'success', 'account'];
const prerendered: PrerenderedPage[] = [
  {
    name: 'landing',
    template: 'landing.html',
    output: 'index.html',
    lowPriorityScripts: true,
    mustContain: 'id="checkout"',
  },
  // Their scripts fetch at low priority, behind the document (its HTML paints on its own); each
  // page's entry asks for its islands after the first frame (but /blackcard's access check at once).
  ...PAGES.map((name) => ({
    name,
    template: `pages/${name}.html`,
    output: `pages/${name}.html`,
    lowPriorityScripts: true,
    mustContain: '<h1',
  })),
  // /blackcard as the server sends it once it has checked the query token (@contracts/blackcard-grant).
  {
    name: 'blackcard-granted',
    template: 'pages/blackcard.html',
    output: BLACKCARD_GRANT.document,
    lowPriorityScripts: true,
    mustContain: `>${BLACKCARD_GRANT.json}</script>`,
  },
];
const pageInputs = Object.fromEntries(
  PAGES.map((name) => [`page-${name}`, fileURLToPath(new URL(`./pages/${name}.html`, import.meta.url))]),
);

/**
 * Chunks named by hand. Vite's preload helper stays alone (the landing entry's only import; in a
 * shared chunk it would pull React into the first paint); the consent banner's copy stays with the
 * banner (only builds with analytics load it). The small modules every buyer page shares (routes,
 * plans, money, links, the API client, the stored query, React's hooks' helpers) go in one chunk:
 * a dozen files of a few hundred bytes each cost more in per-file gzip overhead than they weigh.
 */
const OWN_CHUNKS: readonly (readonly [string, string])[] = [
  ['vite/preload-helper', 'preload-helper'],
  ['/src/content/consent.', 'consent-copy'],
  ...[
    '/contracts/routes.',
    '/contracts/plans.',
    '/src/content/money.',
    '/src/content/config.',
    '/src/content/brand.',
    '/src/lib/funnel-links.',
    '/src/lib/api-client.',
    '/src/lib/personal-query.',
    '/src/lib/personal-query-guard.',
    '/src/lib/use-hydrated.',
    '/src/lib/use-page-search.',
    '/src/lib/user-preferences.',
    '/src/lib/env.',
    '/src/components/page-link.',
  ].map((part) => [part, 'funnel-core'] as const),
];

// The API runs separately; dev and preview forward /api so cookies stay first-party.
const apiProxy = { '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000' } };

export default defineConfig(({ isSsrBuild }) => ({
  // One .env at the repository root configures server and client (only VITE_* reach the client).
  envDir: '..',
  plugins: [
    react(),
    injectDocumentHead(documentHead),
    inlinePersonalQueryGuard(),
    prerenderPages({ clientOutDir, pages: prerendered }),
    compileHints({ modules: ['/node_modules/react-dom/'] }),
    previewSpaShell({ clientOutDir }),
  ],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@contracts': fileURLToPath(new URL('../backend/src/contracts', import.meta.url)),
    },
  },
  build: isSsrBuild
    ? { outDir: ssrOutDir, emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: clientOutDir,
        emptyOutDir: true,
        target: 'es2022',
        minify: 'terser',
        terserOptions: { module: true, compress: { passes: 3, ecma: 2020 }, format: { ecma: 2020 } },
        // No preload lists: each dynamic import would carry the list of its chunk's dependencies, which
        // every page ships whether or not it ever takes that path (the budget of a page is 75 KiB gzip,
        // React alone is 60); chunks are few and shallow (below), so the browser finds them quickly.
        modulePreload: false,
        // index.html is the SPA's shell; landing.html the prerendered `/`, which loads only its islands;
        // pages/*.html the other prerendered pages; admin.html the admin screens, which share no entry
        // code with the funnel (no analytics at all).
        rollupOptions: {
          input: {
            spa: fileURLToPath(new URL('./index.html', import.meta.url)),
            landing: fileURLToPath(new URL('./landing.html', import.meta.url)),
            admin: fileURLToPath(new URL('./admin.html', import.meta.url)),
            ...pageInputs,
          },
          // Small chunks merge into larger ones (each file costs its own gzip overhead), except OWN_CHUNKS.
          output: {
            manualChunks: (id) => OWN_CHUNKS.find(([part]) => id.includes(part))?.[1],
          },
        },
      },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
}));
