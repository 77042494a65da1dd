import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAppRoute, prerenderedDocument } from '@contracts/route-table';
import { isAdminPath, routeOf } from '@contracts/routes';
import type { BuiltPages } from './built-pages';
import { withSiteSettings } from './site-settings';
import { acceptedEncoding, compressedDocument, withTestModeRibbon, type CompressedDocument } from './test-mode-ribbon';

export type SpaFallback = (req: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * A page the server writes for one request, in place of its built document: its HTML, or null to
 * send the built document. Its HTML is that visitor's alone, so it is never stored by any cache.
 */
export type PageRenderer = (req: FastifyRequest) => Promise<string | null>;

/**
 * Serves the built SPA: `/` is the prerendered landing page (index.html), a funnel page the build
 * prerendered gets its own document (pages/<page>.html), hashed assets are cached for a year,
 * /admin paths get the admin document (admin.html) and any other page path gets the funnel's
 * client shell (spa.html). The buyer pages are those the build lists (`pages`); any other path,
 * a page the site leaves out (site.json `pages`: never built) included, is answered 404 with the
 * shell, which shows the not-found screen.
 *
 * One build serves any deployment, so what differs between them is added here, at start:
 * `settingsElement` (site-settings.ts: the run-time ids and links) goes into every public
 * document's head, and `testMode` (payments not live) puts the test-mode ribbon on every
 * document, admin's included. The documents are then read once, so changed, into memory and
 * compressed there as the build compresses its files, whose .br/.gz are never sent; each answer
 * is a lookup. With neither, the files are sent exactly as built.
 */
export async function serveSpa(
  app: NestFastifyApplication,
  staticDir: string,
  pages: BuiltPages,
  renderers: Readonly<Record<string, PageRenderer>> = {},
  { testMode = false, settingsElement = null }: { testMode?: boolean; settingsElement?: string | null } = {},
): Promise<SpaFallback | null> {
  const root = resolve(staticDir);
  if (!existsSync(resolve(root, 'index.html'))) {
    new Logger('Spa').warn(`No built SPA in ${root}; run "npm run build:web". Serving the API only.`);
    return null;
  }
  const changed = testMode || settingsElement !== null;
  // Text assets go out gzip/brotli compressed; tiny API bodies stay under the 1 KB threshold.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    index: ['index.html'],
    // The web build writes .br and .gz next to each text asset (maximum compression, once).
    preCompressed: true,
    // A changed document is never sent from its file: the fallback sends it as changed.
    ...(changed && { allowedPath: (path: string) => !isDocumentPath(path) }),
    setHeaders: (res, path) => {
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const shell = existsSync(resolve(root, 'spa.html')) ? 'spa.html' : 'index.html';
  const documentFor = pageDocuments(root, shell, pages);
  const prepared = changed ? preparedDocuments(root, { testMode, settingsElement }) : null;
  const isPage = (path: string) => (isAdminPath(path) ? isAppRoute(path) : pages.has(path));
  // Unknown paths still get a document (it renders the 404 card) but with a 404 status for crawlers.
  const sendDocument = (path: string, req: FastifyRequest, reply: FastifyReply) => {
    const file = documentFor(path);
    const started = reply.status(isPage(path) ? 200 : 404).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    const document = prepared?.get(file);
    if (!document) return started.sendFile(file);
    // Already compressed: @fastify/compress leaves an answer with a Content-Encoding alone.
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    started.header('vary', 'accept-encoding');
    return encoding ? started.header('content-encoding', encoding).send(document[encoding]) : started.send(document.identity);
  };
  // A page written for one request is sent once its HTML is ready. The reply is never what the
  // promise resolves to: a Fastify reply is thenable, and adopting it would wait on the response.
  const sendRendered = async (render: PageRenderer, path: string, req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const html = await render(req);
    if (html === null) sendDocument(path, req, reply);
    else reply.status(200).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(testMode ? withTestModeRibbon(html) : html);
  };
  return (req, reply) => {
    const path = new URL(req.url, 'http://x').pathname;
    const render = req.method === 'GET' && isPage(path) ? renderers[routeOf(path)] : undefined;
    return render ? sendRendered(render, path, req, reply) : sendDocument(path, req, reply);
  };
}

/**
 * The document of a page path: the admin document under /admin, a buyer page's own prerendered
 * document when the build wrote one (looked up once, at start), else the SPA's shell.
 */
export function pageDocuments(root: string, shell: string, pages: BuiltPages): (path: string) => string {
  const built = new Set(PUBLIC_DOCUMENTS.flatMap((file) => (existsSync(resolve(root, file)) ? [file] : [])).concat(builtPages(root)));
  return (path) => {
    if (isAdminPath(path)) return ADMIN_DOCUMENT;
    // Only a listed page's: another document of the build (the granted /blackcard's) is no page.
    const own = pages.has(path) ? prerenderedDocument(path) : null;
    return own && built.has(own) ? own : shell;
  };
}

/**
 * Every document the build wrote, by its file name under the build, as this deployment sends it:
 * the settings in each public one, the ribbon in each (test mode), compressed.
 */
function preparedDocuments(
  root: string,
  { testMode, settingsElement }: { testMode: boolean; settingsElement: string | null },
): Map<string, CompressedDocument> {
  const publicFiles = PUBLIC_DOCUMENTS.filter((file) => existsSync(resolve(root, file))).concat(builtPages(root));
  const prepare = (file: string): CompressedDocument => {
    let html = readFileSync(resolve(root, file), 'utf8');
    if (settingsElement !== null && file !== ADMIN_DOCUMENT) html = withSiteSettings(html, settingsElement);
    return compressedDocument(testMode ? withTestModeRibbon(html) : html);
  };
  const files = existsSync(resolve(root, ADMIN_DOCUMENT)) ? [...publicFiles, ADMIN_DOCUMENT] : publicFiles;
  return new Map(files.map((file) => [file, prepare(file)]));
}

/** A path the static files would answer with a document: a directory's index.html, or an .html file. */
const isDocumentPath = (path: string): boolean => path.endsWith('/') || path.endsWith('.html');

/** The public pages the server sends as HTML, besides each prerendered page's; admin.html runs no inline script. */
const PUBLIC_DOCUMENTS = ['index.html', 'spa.html'];
/** The admin screens' document: no third party, so no site settings either. */
const ADMIN_DOCUMENT = 'admin.html';
const PAGES_DIR = 'pages';

/** The prerendered pages' documents the build wrote (`pages/<page>.html`). */
function builtPages(root: string): string[] {
  const dir = resolve(root, PAGES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => `${PAGES_DIR}/${file}`);
}
/** An inline script that runs: not one with a src, nor a data block (`type="application/json"`, never executed). */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?![^>]*\stype="application\/json")[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts in the built public pages: the build writes
 * one (the address-bar guard, frontend/vite/personal-query.plugin.ts), and the CSP allows no other.
 */
export function inlineScriptHashes(staticDir: string): string[] {
  const hashes = new Set<string>();
  for (const file of [...PUBLIC_DOCUMENTS, ...builtPages(staticDir)]) {
    const path = resolve(staticDir, file);
    if (!existsSync(path)) continue;
    for (const [, body] of readFileSync(path, 'utf8').matchAll(INLINE_SCRIPT)) {
      if (body.trim()) hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
    }
  }
  return [...hashes];
}
