import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The site as built with analytics ids. The server under test serves the default build (no
 * analytics), so the consent journeys get their own build, prerendered like production, served by
 * a tiny static server on 127.0.0.1 that answers the one API read the landing page makes and the beacon.
 */
export const TEST_GA4_ID = 'G-E2ECONSENT';
export const TEST_META_PIXEL_ID = '100200300400500';

const run = promisify(execFile);
const repoRoot = resolve(__dirname, '../../..');
const viteCli = resolve(repoRoot, 'node_modules/vite/bin/vite.js');
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface AnalyticsSite {
  url: string;
  close(): Promise<void>;
}

async function buildWithAnalytics(outDir: string): Promise<void> {
  const options = {
    cwd: resolve(repoRoot, 'frontend'),
    // Explicit values win over any .env file, so the build holds exactly these integrations.
    env: {
      ...process.env,
      WEB_OUT_DIR: outDir,
      VITE_GA4_ID: TEST_GA4_ID,
      VITE_META_PIXEL_ID: TEST_META_PIXEL_ID,
      VITE_FIRSTPROMOTER_ID: '',
    },
  };
  await run(process.execPath, [viteCli, 'build', '--logLevel', 'warn'], options);
  await run(process.execPath, [viteCli, 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn'], options);
}

function serve(root: string): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/api/testimonials/featured') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    // The first-party funnel beacon every page view sends: accepted and dropped, as its answer is never read.
    if (path === '/api/beacon' && req.method === 'POST') {
      req.resume();
      res.writeHead(204).end();
      return;
    }
    // Like the real server: `/` is the prerendered page, other page paths get the SPA shell.
    const file = path === '/' ? 'index.html' : extname(path) ? normalize(path).replace(/^[/\\]+/, '') : 'spa.html';
    const target = resolve(root, file);
    if (!target.startsWith(root) || path.startsWith('/api/')) {
      res.writeHead(404).end();
      return;
    }
    readFile(target).then(
      (body) => res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
}

/** Builds the analytics variant into a temporary directory and serves it; close() removes both. */
export async function startAnalyticsSite(): Promise<AnalyticsSite> {
  const dir = await mkdtemp(join(tmpdir(), 'clear-consent-'));
  const root = join(dir, 'dist');
  try {
    await buildWithAnalytics(root);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const server = serve(root);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The analytics site has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
