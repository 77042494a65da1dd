import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { loadSite, loadTheme, siteDir } from '../../backend/src/contracts/site/site-folder';
import { themeCss } from '../../backend/src/contracts/site/theme.schema';

const SITE_MODULE = /\/backend\/src\/contracts\/site\/site(\.ts)?$/;
const VIRTUAL_SITE = '\0site-settings';
/** The stylesheet every page loads first: the theme's tokens go at its top. */
const BASE_STYLESHEET = /\/frontend\/src\/styles\/base\.css$/;

/**
 * The site folder in the bundle: `@contracts/site/site` reads site.json from disk on the server;
 * in the browser it becomes a module holding the same settings, read and checked here, so a build
 * of a broken site folder stops with the file, the field and what is wrong. The dev server reloads
 * when site.json changes. The theme's colour and font tokens (theme.json) become CSS custom
 * properties at the top of the base stylesheet, which every page loads (and the prerendered pages
 * inline), so the pages need no inline style the CSP would have to allow.
 */
export function siteSettings(): Plugin {
  const dir = siteDir(fileURLToPath(new URL('../..', import.meta.url)));
  return {
    name: 'clear:site-settings',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !/site(\.ts)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && SITE_MODULE.test(resolved.id.split('?')[0]) ? VIRTUAL_SITE : null;
    },
    load(id) {
      if (id !== VIRTUAL_SITE) return null;
      this.addWatchFile(`${dir}/site.json`);
      const settings = loadSite(dir);
      // The owner's address is for the worker's dispute e-mails, not for every visitor's bundle.
      delete settings.brand.ownerEmail;
      return `export const site = ${JSON.stringify(settings)};\n`;
    },
    transform(code, id) {
      if (!BASE_STYLESHEET.test(id.split('?')[0])) return null;
      this.addWatchFile(`${dir}/theme.json`);
      return { code: themeCss(loadTheme(dir)) + code, map: null };
    },
  };
}
