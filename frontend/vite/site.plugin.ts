import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { loadSite, siteDir } from '../../backend/src/contracts/site/site-folder';

const SITE_MODULE = /\/backend\/src\/contracts\/site\/site(\.ts)?$/;
const VIRTUAL_SITE = '\0site-settings';

/**
 * The site folder in the bundle: `@contracts/site/site` reads site.json from disk on the server;
 * in the browser it becomes a module holding the same settings, read and checked here, so a build
 * of a broken site folder stops with the file, the field and what is wrong. The dev server reloads
 * when site.json changes.
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
  };
}
