import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILT_PAGES_FILE } from '@contracts/route-table';
import { routeOf } from '@contracts/routes';

/**
 * The buyer pages of the web build this API serves, as the build lists them (`BUILT_PAGES_FILE`:
 * frontend/src/pages/registry.ts less the pages the site leaves out), read once at start. The
 * server answers these paths (and the admin's) with 200 and the beacon counts views of these
 * alone, so a page added to the registry needs no route listed anywhere else. Without a build the
 * API serves no page; a build without the list is refused rather than served with every page a 404.
 */
export class BuiltPages {
  private constructor(private readonly routes: ReadonlySet<string>) {}

  static read(staticDir: string): BuiltPages {
    const root = resolve(staticDir);
    if (!existsSync(resolve(root, 'index.html'))) return new BuiltPages(new Set());
    const file = resolve(root, BUILT_PAGES_FILE);
    if (!existsSync(file)) throw new Error(`The web build in ${root} has no ${BUILT_PAGES_FILE}: rebuild it with "npm run build:web".`);
    const routes: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(routes) || !routes.every((route) => typeof route === 'string' && route.startsWith('/')))
      throw new Error(`${file} must be a JSON array of page paths: rebuild it with "npm run build:web".`);
    return new BuiltPages(new Set(routes.map(routeOf)));
  }

  /** Whether the path, in any case and with or without a trailing slash, is a buyer page of the build. */
  has(pathname: string): boolean {
    return this.routes.has(routeOf(pathname));
  }
}
