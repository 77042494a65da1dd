import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defaultSiteDir, loadSite, loadTheme, siteDir } from '../../backend/src/contracts/site/site-folder';
import { type Site, withDisplayTexts } from '../../backend/src/contracts/site/site-copy';
import { pagesLeftOut } from '../../backend/src/contracts/site/site-pages';
import { themeCss } from '../../backend/src/contracts/site/theme.schema';
import { SHOWN_WHOLE, SYMBOLS } from '../../backend/src/contracts/currency-display';
import { documentHead, MEDIA_TYPES, MEDIA_URL, mediaFiles, siteModuleJson, type MediaFile } from './site-files';

const root = fileURLToPath(new URL('../..', import.meta.url));

const SITE_MODULE = /\/backend\/src\/contracts\/site\/site(\.ts)?$/;
const VIRTUAL_SITE = '\0seller-site';
const CURRENCY_DISPLAY_MODULE = /\/backend\/src\/contracts\/currency-display(\.ts)?$/;
const VIRTUAL_CURRENCY_DISPLAY = '\0seller-currency-display';
/** How the SPA imports a site folder's files: `import copy from '@site/copy/landing.json'`. */
const SITE_IMPORT = '@site/';
/** The stylesheet every page loads first: the theme's tokens go at its top. */
const BASE_STYLESHEET = /\/frontend\/src\/styles\/base\.css$/;

/**
 * The site folder in the bundle: `@contracts/site/site` reads site.json from disk on the server;
 * in the browser it becomes a module holding the same settings, read and checked here, so a build
 * of a broken site folder stops with the file, the field and what is wrong. `@site/…json` imports
 * load the chosen site's copy files the same way (their types come from the default site's files,
 * tsconfig's `@site/*` path), and the posters of `media.json` are served and built under /media/.
 * The theme's colour and font tokens (theme.json) become CSS custom properties at the top of the
 * base stylesheet, which every page loads (and the prerendered pages inline), so the pages need no
 * inline style the CSP would have to allow. The pages the site leaves out (site.json `pages`) are
 * `__PAGES_LEFT_OUT__` to the code, a constant of the build rather than a setting every page would
 * ship. The dev server reloads when a file of the site folder changes.
 */
export function siteSettings(): Plugin {
  const dir = siteDir(root);
  const defaultDir = defaultSiteDir(root);
  const inSite = (id: string) => id.startsWith(dir + sep) && id.endsWith('.json');
  return {
    name: 'clear:site-settings',
    enforce: 'pre',
    config: () => ({ define: { __PAGES_LEFT_OUT__: JSON.stringify(pagesLeftOut(loadSite(dir))) } }),
    async resolveId(source, importer, options) {
      if (source.startsWith(SITE_IMPORT)) return join(dir, source.slice(SITE_IMPORT.length));
      if (!importer || !/(site|currency-display)(\.ts)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved?.id.split('?')[0] ?? '';
      return SITE_MODULE.test(file) ? VIRTUAL_SITE : CURRENCY_DISPLAY_MODULE.test(file) ? VIRTUAL_CURRENCY_DISPLAY : null;
    },
    load(id) {
      if (id === VIRTUAL_CURRENCY_DISPLAY) {
        // The site's currency alone (../../backend/src/contracts/currency-display.ts says why).
        const { currency } = loadSite(dir);
        const symbol = SYMBOLS[currency];
        return `export const SHOWN_WHOLE = ${JSON.stringify(SHOWN_WHOLE.split(' ').includes(currency) ? currency : '')};\nexport const SYMBOLS = ${JSON.stringify(symbol ? { [currency]: symbol } : {})};\n`;
      }
      if (id === VIRTUAL_SITE) {
        this.addWatchFile(`${dir}/site.json`);
        return `export const site = ${JSON.stringify(browserSettings(withDisplayTexts(loadSite(dir))))};\n`;
      }
      if (!inSite(id)) return null;
      const relativePath = relative(dir, id);
      this.addWatchFile(`${dir}/site.json`);
      this.addWatchFile(join(defaultDir, relativePath));
      // Vite's JSON plugin turns the text into a module, as for any imported .json file.
      return siteModuleJson(dir, defaultDir, relativePath);
    },
    configureServer(server) {
      server.middlewares.use(MEDIA_URL, (req, res, next) => {
        const file = join(dir, 'media', decodeURIComponent((req.url ?? '').split('?')[0]));
        if (!file.startsWith(join(dir, 'media') + sep) || !existsSync(file)) return next();
        res.setHeader('Content-Type', MEDIA_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      if (this.environment.config.build.ssr) return;
      const media = JSON.parse(siteModuleJson(dir, defaultDir, 'media.json')) as Record<string, MediaFile>;
      for (const name of mediaFiles(dir, media)) {
        this.emitFile({ type: 'asset', fileName: `media/${name}`, source: readFileSync(join(dir, 'media', name)) });
      }
    },
    transform(code, id) {
      if (!BASE_STYLESHEET.test(id.split('?')[0])) return null;
      this.addWatchFile(`${dir}/theme.json`);
      return { code: themeCss(loadTheme(dir)) + code, map: null };
    },
  };
}

/**
 * What the pages' code reads of site.json, and nothing more: every byte here is on every buyer
 * page. The guarantee's wordings, the method's and the founder's names reach the pages through
 * their copy files (filled at build); the sender's and the owner's addresses are the worker's.
 */
function browserSettings({ brand, currency, plans, offers }: Site): Omit<Site, 'guarantee' | 'brand' | 'pages' | 'plans'> & {
  brand: Partial<Site['brand']>;
  plans: Omit<Site['plans'][number], 'display' | 'interval' | 'product'>[];
} {
  const { name, siteUrl, programName } = brand;
  // A plan's display template and interval are spent in its display text; its product is the
  // server's (contracts/products.ts) and the admin's names come from the API: no page reads them.
  const shown = plans.map(({ display: _template, interval: _interval, product: _product, ...plan }) => plan);
  return { brand: { name, siteUrl, programName }, currency, plans: shown, offers };
}

/** The page paths the chosen site folder leaves out (site.json `pages`): the build writes no document for them. */
export function sitePagesLeftOut(): readonly string[] {
  return pagesLeftOut(loadSite(siteDir(root)));
}

/** Every document's title, description and theme colour, from the chosen site folder. */
export function siteDocumentHead(): ReturnType<typeof documentHead> {
  return documentHead(siteDir(root), defaultSiteDir(root));
}
