/// <reference types="vite/client" />

/** The page paths the site leaves out (site.json `pages`), set by the build (vite/site.plugin.ts). */
declare const __PAGES_LEFT_OUT__: readonly string[];
