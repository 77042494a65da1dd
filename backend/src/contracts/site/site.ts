import { loadSite, siteDir } from './site-folder';
import { type Site, withDisplayTexts } from './site-copy';

/**
 * The seller's site settings, read once when the process starts. On the server this module reads
 * the site folder from disk; in the browser bundle the build replaces it by the same settings,
 * read and checked at build time (frontend/vite/site.plugin.ts), so both sides see one site.
 */
export const site: Site = withDisplayTexts(loadSite(siteDir(__dirname)));
