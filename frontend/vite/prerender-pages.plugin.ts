import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { BUILT_PAGES_FILE, prerenderedDocument } from '../../backend/src/contracts/route-table';
import { isAdminPath, routeOf } from '../../backend/src/contracts/routes';
import { precompressDir } from './precompress';

const EMPTY_ROOT = '<div id="root"></div>';
const LEADING_LINKS = /^(?:<link [^>]*>)+/;

export interface DocumentHead {
  title: string;
  description: string;
  /** The site's theme.json `themeColor`. */
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

/** A page whose HTML the build renders (src/entry-server.tsx, `renderPage`). */
export interface PrerenderedPage {
  /** The name `renderPage` knows it by. */
  name: string;
  /** The client build's document for it (the page's HTML input), relative to the output directory. */
  template: string;
  /** Where the finished document goes; the server picks it by route (backend/src/common/spa.ts). */
  output: string;
  /** The page's scripts are fetched at low priority, behind the document and its images (the island pages). */
  lowPriorityScripts?: boolean;
  /** Text the markup must hold, or the build fails (its headline, a section the page cannot lack). */
  mustContain: string;
}

interface RenderedPage {
  title: string;
  markup: string;
}

/**
 * Runs after the SSR build of src/entry-server.tsx: renders each listed page into its client
 * document (its markup fills `#root`, and its script hydrates only the page's islands) with
 * its title and its CSS inlined. The SPA's untouched shell (index.html as built) becomes spa.html
 * for every other route. The SSR bundle and the landing template are deleted afterwards so neither
 * is ever served.
 */
export function prerenderPages({ clientOutDir, pages }: { clientOutDir: string; pages: readonly PrerenderedPage[] }): Plugin {
  let root = process.cwd();
  let ssrOutDir = '';
  let entryFile = '';
  return {
    name: 'clear:prerender-pages',
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
      const indexFile = resolve(clientDir, 'index.html');
      const { renderPage } = (await import(pathToFileURL(entryFile).href)) as { renderPage: (name: string) => RenderedPage };
      const templates = new Map<string, string>();
      for (const page of pages) {
        const templateFile = resolve(clientDir, page.template);
        if (!existsSync(templateFile))
          throw new Error(`prerender: ${clientOutDir}/${page.template} is missing; run the client build first`);
        templates.set(page.name, await readFile(templateFile, 'utf8'));
      }
      // The shell is what the client build wrote as index.html, before `/` takes its place.
      await writeFile(resolve(clientDir, 'spa.html'), await readFile(indexFile, 'utf8'));
      for (const page of pages) {
        const template = templates.get(page.name) ?? '';
        if (template.split(EMPTY_ROOT).length !== 2) {
          throw new Error(`prerender: expected exactly one ${EMPTY_ROOT} in ${clientOutDir}/${page.template}`);
        }
        const { title, markup: rendered } = renderPage(page.name);
        if (!rendered.includes(page.mustContain)) throw new Error(`prerender: the ${page.name} markup is missing ${page.mustContain}`);
        // React emits resource hints (image preloads) ahead of the markup; they belong in <head>.
        const hints = rendered.match(LEADING_LINKS)?.[0] ?? '';
        const markup = rendered.slice(hints.length);
        const body = `<div id="root">${markup}</div>`;
        const document = (page.lowPriorityScripts ? deferIslandScripts(template) : template)
          .replace(/<title>[^<]*<\/title>/, `<title>${escapeText(title)}</title>`)
          .replace(/(<meta property="og:title" content=")[^"]*"/, `$1${escapeAttribute(title)}"`)
          .replace('</head>', `${hints}</head>`)
          .replace(EMPTY_ROOT, body);
        await writeFile(resolve(clientDir, page.output), await inlineStylesheets(document, clientDir));
      }
      // A template no page writes its document over is only a build input (landing.html); two
      // pages may share one (/blackcard and its granted document).
      const outputs = new Set(pages.map((page) => page.output));
      for (const page of pages) if (!outputs.has(page.template)) await rm(resolve(clientDir, page.template), { force: true });
      await rm(ssrOutDir, { recursive: true, force: true });
      await precompressDir(clientDir);
    },
  };
}

const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
const escapeAttribute = (text: string) => escapeText(text).replaceAll('"', '&quot;');

/**
 * An island page is complete as server HTML; its scripts only make the islands interactive. At low
 * fetch priority they do not compete with the document and the hero image.
 */
function deferIslandScripts(html: string): string {
  return html
    .replace(/<script type="module" /g, '<script type="module" fetchpriority="low" ')
    .replace(/<link rel="modulepreload" /g, '<link rel="modulepreload" fetchpriority="low" ');
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g;

/**
 * A prerendered page's CSS is a few KB: inlining it saves the render-blocking round trip before
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
 * `vite preview` mirrors the production server: a page the build lists gets its own document,
 * /admin paths get the admin document, and every other page path gets the empty shell, never
 * another page's markup (which would not match the route).
 */
export function previewSpaShell({ clientOutDir }: { clientOutDir: string }): Plugin {
  return {
    name: 'clear:preview-spa-shell',
    configurePreviewServer(server) {
      const clientDir = resolve(server.config.root, clientOutDir);
      const listed = new Set(JSON.parse(readFileSync(resolve(clientDir, BUILT_PAGES_FILE), 'utf8')) as string[]);
      server.middlewares.use((req, _res, next) => {
        const path = req.url?.split('?')[0] ?? '/';
        const isPage = !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path);
        if (isPage && req.headers.accept?.includes('text/html')) {
          const own = listed.has(routeOf(path)) ? prerenderedDocument(path) : null;
          req.url = isAdminPath(path) ? '/admin.html' : own && existsSync(resolve(clientDir, own)) ? `/${own}` : '/spa.html';
        }
        next();
      });
    },
  };
}
