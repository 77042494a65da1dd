import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkCopy, COPY_RULES, siteTerms } from './site-copy';
import { SiteError } from './site-error';
import { parseSiteSettings, type SiteSettings } from './site.schema';
import { parseTheme, type Theme } from './theme.schema';

// Reading a site folder from disk: at boot (./site.ts) and at build (frontend/vite/site.plugin.ts).

/** The site folder: `SITE_DIR` when set, else the default one (below). */
export function siteDir(from: string): string {
  const chosen = process.env.SITE_DIR?.trim();
  return chosen ? resolve(chosen) : defaultSiteDir(from);
}

/**
 * `site/` at the root of the repository (or the image), found upwards from `from`: the default
 * site, whose copy files are the schema of every other site's.
 */
export function defaultSiteDir(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'site', 'site.json'))) return join(dir, 'site');
  }
  throw new SiteError('No site folder: set SITE_DIR to the folder that holds site.json.');
}

function readJson(file: string, dir: string): unknown {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    throw new SiteError(`${file}: cannot be read: the site folder (${dir}) needs this file.`);
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new SiteError(`${file}: is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads and checks `site.json` of a site folder; throws a SiteError naming what is wrong. */
export function loadSite(dir: string): SiteSettings {
  const file = join(dir, 'site.json');
  return parseSiteSettings(readJson(file, dir), file);
}

/** Reads and checks `theme.json` of a site folder: the pages' and e-mails' colours and fonts. */
export function loadTheme(dir: string): Theme {
  const file = join(dir, 'theme.json');
  return parseTheme(readJson(file, dir), file);
}

/**
 * Reads a copy file (`copy/landing.json`, `emails/receipt.json`…) of a site folder, checked
 * against the default site's file of the same name and with the site's terms filled in, and
 * against site.json where it names its plans (COPY_RULES).
 */
export function loadCopy<T>(dir: string, defaultDir: string, relativePath: string, settings: SiteSettings): T {
  const reference = readJson(join(defaultDir, relativePath), defaultDir) as T;
  const file = join(dir, relativePath);
  const copy = checkCopy(readJson(file, dir), reference, siteTerms(settings), file);
  const problems = COPY_RULES[relativePath]?.(copy as never, settings) ?? [];
  if (problems.length) throw new SiteError(`The site folder has ${problems.length} problem(s):\n${problems.map((p) => `  ${file}: ${p}`).join('\n')}`);
  return copy;
}

