import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseSiteSettings, SiteError, type SiteSettings } from './site.schema';

// Reading a site folder from disk: at boot (./site.ts) and at build (frontend/vite/site.plugin.ts).

/** The site folder: `SITE_DIR` when set, else `site/` at the root of the repository (or the image). */
export function siteDir(from: string): string {
  const chosen = process.env.SITE_DIR?.trim();
  if (chosen) return resolve(chosen);
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'site', 'site.json'))) return join(dir, 'site');
  }
  throw new SiteError('No site folder: set SITE_DIR to the folder that holds site.json.');
}

/** Reads and checks `site.json` of a site folder; throws a SiteError naming what is wrong. */
export function loadSite(dir: string): SiteSettings {
  const file = join(dir, 'site.json');
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    throw new SiteError(`${file}: cannot be read: a site folder needs a site.json (SITE_DIR is ${dir}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new SiteError(`${file}: is not valid JSON: ${(error as Error).message}`);
  }
  return parseSiteSettings(parsed, file);
}

