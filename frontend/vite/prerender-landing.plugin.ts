import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { isAdminPath } from '../../backend/src/contracts/routes';
import { precompressDir } from './precompress';

const EMPTY_ROOT = '<div id="root"></div>';
const LEADING_LINKS = /^(?:<link [^>]*>)+/;

export interface DocumentHead {
  title: string;
  description: string;
  themeColor: string;
}

/** Puts the default title and meta tags into index.html from the typed content, so copy stays in one place. */
export function injectDocumentHead(head: DocumentHead): Plugin {
  return {
    name: 'clear:document-head',
    transformIndexHtml(): HtmlTagDescriptor[] {
      return [
        { tag: 'title', children: head.title, injectTo: 'head' },
        { tag: 'meta', attrs: { name: 'description', content: head.description }, injectTo: 'head' },
        { tag: 'meta', attrs: { name: 'theme-color', content: head.themeColor }, injectTo: 'head' },
        { tag: 'meta', attrs: { property: 'og:title', content: head.title }, injectTo: 'head' },
        { tag: 'meta', attrs: { property: 'og:description', content: head.description }, injectTo: 'head' },
      ];
    },
  };
}

/**
 * Runs after the SSR build of src/entry-server.tsx: renders the landing page into the client's
 * landing.html (whose script hydrates only the page's islands) and writes it as index.html; the
 * SPA's untouched shell becomes spa.html for every other route. The SSR bundle and landing.html
 * are deleted afterwards so neither is ever served.
 */
export function prerenderLanding({ clientOutDir }: { clientOutDir: string }): Plugin {
  let root = process.cwd();
  let ssrOutDir = '';
  let entryFile = '';
  return {
    name: 'clear:prerender-landing',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild === true,
    configResolved(config) {
      root = config.root;
      ssrOutDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry);
      if (!entry) throw new Error('prerender: the SSR build produced no entry chunk');
      entryFile = resolve(ssrOutDir, entry.fileName);
    },
    async closeBundle() {
      const clientDir = resolve(root, clientOutDir);
      const shellFile = resolve(clientDir, 'spa.html');
      const indexFile = resolve(clientDir, 'index.html');
      const landingFile = resolve(clientDir, 'landing.html');
      if (!existsSync(landingFile)) throw new Error(`prerender: ${clientOutDir}/landing.html is missing; run the client build first`);
      const shell = await readFile(indexFile, 'utf8');
      const landingShell = await readFile(landingFile, 'utf8');
      if (landingShell.split(EMPTY_ROOT).length !== 2) {
        throw new Error(`prerender: expected exactly one ${EMPTY_ROOT} in ${clientOutDir}/landing.html`);
      }
      const { renderLanding } = (await import(pathToFileURL(entryFile).href)) as { renderLanding: () => string };
      const rendered = renderLanding();
      if (!rendered.includes('id="checkout"')) throw new Error('prerender: the landing markup is missing the #checkout section');
      // React emits resource hints (image preloads) ahead of the markup; they belong in <head>.
      const hints = rendered.match(LEADING_LINKS)?.[0] ?? '';
      const markup = rendered.slice(hints.length);
      await writeFile(shellFile, shell);
      const page = deferIslandScripts(landingShell)
        .replace('</head>', `${hints}</head>`)
        .replace(EMPTY_ROOT, `<div id="root">${markup}</div>`);
      await writeFile(indexFile, await inlineStylesheets(page, clientDir));
      await rm(landingFile);
      await rm(ssrOutDir, { recursive: true, force: true });
      await precompressDir(clientDir);
    },
  };
}

/**
 * The landing page is complete as server HTML; its entry script only starts the islands after the
 * first frame. At low fetch priority it does not compete with the document and the hero image.
 */
function deferIslandScripts(html: string): string {
  return html
    .replace(/<script type="module" /g, '<script type="module" fetchpriority="low" ')
    .replace(/<link rel="modulepreload" /g, '<link rel="modulepreload" fetchpriority="low" ');
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g;

/**
 * The landing page's CSS is a few KB: inlining it saves the render-blocking round trip before
 * first paint. Other routes keep the cacheable stylesheet link (spa.html).
 */
async function inlineStylesheets(html: string, clientDir: string): Promise<string> {
  let result = html;
  for (const [tag, href] of html.matchAll(STYLESHEET_LINK)) {
    const css = await readFile(resolve(clientDir, `.${href}`), 'utf8');
    result = result.replace(tag, `<style>${css}</style>`);
  }
  return result;
}

/**
 * `vite preview` mirrors the production server: `/` is the prerendered page, /admin paths get the
 * admin document, and every other page path gets the empty shell, never the landing markup
 * (which would not match the route).
 */
export function previewSpaShell(): Plugin {
  return {
    name: 'clear:preview-spa-shell',
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        const path = req.url?.split('?')[0] ?? '/';
        const isPage = path !== '/' && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path);
        if (isPage && req.headers.accept?.includes('text/html')) req.url = isAdminPath(path) ? '/admin.html' : '/spa.html';
        next();
      });
    },
  };
}
