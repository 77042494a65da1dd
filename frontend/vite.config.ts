import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compileHints } from './vite/compile-hints.plugin';
import { inlinePersonalQueryGuard } from './vite/personal-query.plugin';
import { siteDocumentHead, sitePagesLeftOut, siteSettings } from './vite/site.plugin';
import { injectDocumentHead, prerenderPages, previewSpaShell } from './vite/prerender-pages.plugin';
import { buyerPages, islandsModuleOf, pageInputs, prerenderedPages } from './vite/pages.plugin';
import { PAGES } from './src/pages/registry';

// Tests build variants (e.g. with analytics ids) into a temporary WEB_OUT_DIR, leaving dist/ alone;
// the prerender step's throwaway SSR bundle then stays under node_modules so its imports resolve.
const variantOutDir = process.env.WEB_OUT_DIR;
const clientOutDir = variantOutDir || 'dist';
const ssrOutDir = variantOutDir ? `node_modules/.cache/prerender-${process.pid}` : 'dist-ssr';

// The buyer pages (src/pages/registry.ts) but those the site leaves out (site.json `pages`).
const leftOut = sitePagesLeftOut();
const pages = PAGES.filter((page) => !leftOut.includes(page.route));
const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Chunks named by hand; everything else Rolldown splits by the set of pages that load it. A page pays
 * gzip's per-file overhead and an import line per file, so the code every buyer page loads goes in
 * as few files as the load order allows:
 * - `funnel-core`: React itself and the small modules every page shares (routes, plans, money,
 *   links, the API client, the stored query, the page heading, the request hook). Checkout's and
 *   /blackcard's entries import it before the first frame, so nothing in it may import react-dom.
 * - `islands`: react-dom and what runs every page once it has painted (hydration, start-up
 *   tracking, consent and toast hosts): lib/island-loading.ts evaluates it in a task of its own.
 * - Vite's preload helper stays alone (the landing entry's only import; in a shared chunk it would
 *   pull React into the first paint); the consent banner's copy stays with the banner (only builds
 *   with analytics load it).
 * - /checkout and /success each load their island's code as one file. What they share with other
 *   screens is named too, or Rolldown would pull it into the page's chunk and the other screen would
 *   load that page: the payment config and provider loader (checkout's entry imports them before
 *   the first frame, without React's DOM), the plan cards (/upsell), the sandbox card's copy
 *   (/account).
 * Stylesheets are never put in a chunk with scripts: each stays a stylesheet of its own, which the
 * prerender inlines into the pages that import it. Rolldown's runtime helpers (for React's
 * CommonJS) come as a chunk of their own, which no group can take.
 */
const OWN_CHUNKS: readonly { name: string; modules: readonly string[] }[] = [
  { name: 'preload-helper', modules: ['vite/preload-helper'] },
  {
    name: 'funnel-core',
    modules: [
      // Rolldown's helpers for CommonJS modules (React is one).
      'rolldown/runtime',
      '/node_modules/react/',
      '/contracts/routes.',
      '/contracts/plans.',
      // The site folder's settings (frontend/vite/site.plugin.ts) and what fills its copy in.
      '\0seller-site',
      '\0seller-currency-display',
      '/contracts/site/fill.',
      '/contracts/money.',
      '/src/content/config.',
      '/src/content/brand.',
      '/src/lib/funnel-links.',
      '/src/lib/api-client.',
      '/src/lib/storage.',
      '/src/lib/personal-query.',
      '/src/lib/personal-query-guard.',
      '/src/lib/use-hydrated.',
      // Landing's hero backdrop and /success's confetti both wait for the page to settle.
      '/src/lib/idle.',
      // How island pages load their code: with the core, one file fewer on each (a file's gzip overhead counts).
      '/src/lib/island-loading.',
      '/src/lib/use-page-search.',
      '/src/lib/use-request.',
      '/src/lib/user-preferences.',
      '/src/lib/early-request.',
      '/src/lib/form-text.',
      '/src/lib/env.',
      '/src/lib/page-navigation.',
      '/src/components/page-link.',
      '/src/components/page-heading.',
      // React's DOM runtime and the toasts with React, not with the islands: the admin screens use
      // them too, and must load none of the funnel's tracking code, which the islands chunk holds.
      '/node_modules/react-dom/',
      '/node_modules/scheduler/',
      '/src/components/toast/notify.',
      '/src/components/toast/toast-host.',
    ],
  },
  { name: 'consent-copy', modules: ['/src/content/consent.'] },
  {
    name: 'islands',
    modules: [
      '/src/lib/islands.',
      '/src/page-islands.',
      '/src/lib/analytics/index.',
      '/src/lib/analytics/funnel-beacon.',
      '/src/lib/analytics/consent.',
      '/src/lib/referral.',
      '/src/lib/attribution.',
      '/src/lib/visitor.',
      '/src/features/consent/components/consent-host.',
    ],
  },
  {
    name: 'payment-provider',
    modules: ['/src/features/checkout/providers/payment-provider.', '/src/features/checkout/api/get-payments-config.'],
  },
  { name: 'plan-cards', modules: ['/src/components/plan-cards.', '/src/content/plan-cards.'] },
  { name: 'sandbox-card', modules: ['/src/content/sandbox-card.'] },
  {
    name: 'checkout',
    modules: [islandsModuleOf('checkout'), '/src/features/checkout/components/checkout-island.'],
  },
  { name: 'success', modules: [islandsModuleOf('success'), '/src/pages/success.start.'] },
];

const STYLESHEET = /\/([^/]+)\.css(?:$|\?)/;

/**
 * Rolldown's groups for OWN_CHUNKS. A group also takes in what its modules import, unless an
 * earlier group has it: so each group goes before those that import it (priority by list order),
 * and stylesheets, each its own group, before them all.
 */
const chunkGroups = [
  { name: (id: string) => `${STYLESHEET.exec(id)?.[1]}-css`, test: STYLESHEET, priority: OWN_CHUNKS.length + 1 },
  ...OWN_CHUNKS.map(({ name, modules }, index) => ({
    name,
    test: (id: string) => modules.some((part) => id.includes(part)),
    priority: OWN_CHUNKS.length - index,
  })),
];

// The API runs separately; dev and preview forward /api so cookies stay first-party.
const apiProxy = { '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000' } };

export default defineConfig(({ isSsrBuild }) => ({
  // The client reads no build-time setting: the server writes the site's settings into the pages
  // when it starts (backend/src/common/site-settings.ts), so no .env is loaded here.
  envDir: false,
  plugins: [
    siteSettings(),
    buyerPages({ root, pages }),
    react(),
    injectDocumentHead(siteDocumentHead()),
    inlinePersonalQueryGuard(),
    prerenderPages({ clientOutDir, pages: prerenderedPages(pages) }),
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
        // Oxc, Vite 8's minifier: its output of Rolldown's chunks is 0.1-0.2 KiB smaller per page (gzip)
        // than Terser's with three passes, and the build takes a second instead of twenty.
        minify: 'oxc',
        // No preload lists: each dynamic import would carry the list of its chunk's dependencies, which
        // every page ships whether or not it ever takes that path (the budget of a page is 75 KiB gzip,
        // React alone is 60); chunks are few and shallow (below), so the browser finds them quickly.
        modulePreload: false,
        // index.html is the SPA's shell; each buyer page a document of its own (vite/pages.plugin.ts),
        // which loads only its islands; admin.html the admin screens, which share no entry code with
        // the funnel (no analytics at all).
        rolldownOptions: {
          input: {
            spa: fileURLToPath(new URL('./index.html', import.meta.url)),
            ...pageInputs(root, pages),
            admin: fileURLToPath(new URL('./admin.html', import.meta.url)),
          },
          output: { codeSplitting: { groups: chunkGroups } },
        },
      },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
}));
