import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defaultSiteDir, loadSite, siteDir } from '../../backend/src/contracts/site/site-folder';
import { documentHead, MEDIA_TYPES, MEDIA_URL, mediaFiles, siteModuleJson, type MediaFile } from './site-files';

const root = fileURLToPath(new URL('../..', import.meta.url));

const SITE_MODULE = /\/backend\/src\/contracts\/site\/site(\.ts)?$/;
const VIRTUAL_SITE = '\0seller-site';
/** How the SPA imports a site folder's files: `import copy from '@site/copy/landing.json'`. */
const SITE_IMPORT = '@site/';

/**
 * The site folder in the bundle: `@contracts/site/site` reads site.json from disk on the server;
 * in the browser it becomes a module holding the same settings, read and checked here, so a build
 * of a broken site folder stops with the file, the field and what is wrong. `@site/…json` imports
 * load the chosen site's copy files the same way (their types come from the default site's files,
 * tsconfig's `@site/*` path), and the posters of `media.json` are served and built under /media/.
 * The dev server reloads when a file of the site folder changes.
 */
export function siteSettings(): Plugin {
  const dir = siteDir(root);
  const defaultDir = defaultSiteDir(root);
  const inSite = (id: string) => id.startsWith(dir + sep) && id.endsWith('.json');
  return {
    name: 'clear:site-settings',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith(SITE_IMPORT)) return join(dir, source.slice(SITE_IMPORT.length));
      if (!importer || !/site(\.ts)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && SITE_MODULE.test(resolved.id.split('?')[0]) ? VIRTUAL_SITE : null;
    },
    load(id) {
      if (id === VIRTUAL_SITE) {
        this.addWatchFile(`${dir}/site.json`);
        return `export const site = ${JSON.stringify(loadSite(dir))};\n`;
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
  };
}

/** Every document's title, description and theme colour, from the chosen site folder. */
export function siteDocumentHead(): ReturnType<typeof documentHead> {
  return documentHead(siteDir(root), defaultSiteDir(root));
}
