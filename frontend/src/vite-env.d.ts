/// <reference types="vite/client" />

/** The page paths the site leaves out (site.json `pages`), set by the build (vite/site.plugin.ts). */
declare const __PAGES_LEFT_OUT__: readonly string[];

/** Build-time only: every buyer page's title, islands and markup, from src/pages/registry.ts (vite/pages.plugin.ts). */
declare module 'virtual:prerendered-pages' {
  export const islandPages: Readonly<Record<string, import('./pages/island-document').IslandPage>>;
}

/** A buyer page's islands' module, written by the build from src/pages/registry.ts (vite/pages.plugin.ts). */
declare module 'virtual:page/*' {
  /** Its islands in page order (`virtual:page/<page>-island-list`), for a page's own start (`start` in the registry). */
  export const islands: readonly import('./lib/islands').IslandDefinition[];
}
