import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCopy, loadSite, loadTheme } from '../../backend/src/contracts/site/site-folder';
import { SiteError } from '../../backend/src/contracts/site/site-error';

// The site folder's files as the build reads them (./site.plugin.ts, vite.config.ts); apart from the
// plugin so that unit specs can load them without Vite.

/** The site folder's images, served (and copied into the build) under this path of the site. */
export const MEDIA_URL = '/media/';

export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};

export interface MediaFile {
  poster: { src: string };
}

/**
 * The posters `media.json` names, each checked to be a file of the site's `media/` folder; throws a
 * SiteError naming the field and the missing file.
 */
export function mediaFiles(dir: string, media: Record<string, MediaFile>): string[] {
  const file = join(dir, 'media.json');
  return Object.entries(media).map(([key, { poster }]) => {
    if (!poster.src.startsWith(MEDIA_URL))
      throw new SiteError(`${file}: ${key}.poster.src: must start with ${MEDIA_URL} (the site's media/ folder)`);
    const name = poster.src.slice(MEDIA_URL.length);
    if (!existsSync(join(dir, 'media', name)))
      throw new SiteError(`${file}: ${key}.poster.src: ${join(dir, 'media', name)} does not exist`);
    return name;
  });
}

/**
 * The JSON the bundle gets for a file of the site folder (`copy/landing.json`, `media.json`): checked
 * against the default site's file of the same name, with the site's terms filled in (loadCopy);
 * throws a SiteError naming the file and the field when it does not fit.
 */
export function siteModuleJson(dir: string, defaultDir: string, relativePath: string): string {
  const copy = loadCopy<Record<string, MediaFile>>(dir, defaultDir, relativePath, loadSite(dir));
  if (relativePath === 'media.json') mediaFiles(dir, copy);
  return JSON.stringify(copy);
}

/** The title, description and theme colour of every document (copy/head.json, site.json). */
export function documentHead(dir: string, defaultDir: string): { title: string; description: string; themeColor: string } {
  const settings = loadSite(dir);
  const { title, description } = loadCopy<{ title: string; description: string }>(dir, defaultDir, 'copy/head.json', settings);
  return { title, description, themeColor: loadTheme(dir).themeColor };
}
