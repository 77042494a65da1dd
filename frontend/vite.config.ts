import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { documentHead } from './src/content/brand';
import { inlinePersonalQueryGuard } from './vite/personal-query.plugin';
import { injectDocumentHead, prerenderPages, previewSpaShell, type PrerenderedPage } from './vite/prerender-pages.plugin';

// Tests build variants (e.g. with analytics ids) into a temporary WEB_OUT_DIR, leaving dist/ alone;
// the prerender step's throwaway SSR bundle then stays under node_modules so its imports resolve.
const variantOutDir = process.env.WEB_OUT_DIR;
const clientOutDir = variantOutDir || 'dist';
const ssrOutDir = variantOutDir ? `node_modules/.cache/prerender-${process.pid}` : 'dist-ssr';

/**
 * The pages whose HTML the build renders (src/entry-server.tsx). `/` and the static funnel pages
 * ship their markup and hydrate only their islands; /checkout, /success and /account paint a frame
 * of their screen while the SPA (and the payment code) loads. The server picks a page's document by its
 * route (backend/src/contracts/routes.ts, `prerenderedDocument`).
 */
const ISLAND_PAGES = ['invitation', 'blackcard', 'upsell', 'blackcard-upsell', 'success', 'account'];
const FRAME_PAGES = ['checkout'];
const prerendered: PrerenderedPage[] = [
  {
    name: 'landing',
    template: 'landing.html',
    output: 'index.html',
    mount: 'islands',
    lowPriorityScripts: true,
    mustContain: 'id="checkout"',
  },
  // Their scripts fetch at low priority, behind the document (its HTML paints on its own); each
  // page's entry asks for its islands after the first frame (but /blackcard's access check at once).
  ...ISLAND_PAGES.map((name) => ({
    name,
    template: `pages/${name}.html`,
    output: `pages/${name}.html`,
    mount: 'islands' as const,
    lowPriorityScripts: true,
    mustContain: '<h1',
  })),
  ...FRAME_PAGES.map((name) => ({
    name,
    template: `pages/${name}.html`,
    output: `pages/${name}.html`,
    mount: 'frame' as const,
    lowPriorityScripts: true,
    mustContain: '<h1',
  })),
];
const pageInputs = Object.fromEntries(
  [...ISLAND_PAGES, ...FRAME_PAGES].map((name) => [`page-${name}`, fileURLToPath(new URL(`./pages/${name}.html`, import.meta.url))]),
);

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
        modulePreload: { polyfill: false },
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
          // The landing entry's only import is Vite's preload helper: on its own it is a few hundred
          // bytes, where inside the shared chunk it would pull React into the first paint.
          output: { manualChunks: (id) => (id.includes('vite/preload-helper') ? 'preload-helper' : undefined) },
        },
      },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
}));
