import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { BUILT_PAGES_FILE, prerenderedDocument } from '../../backend/src/contracts/route-table';
import { ROUTES } from '../../backend/src/contracts/routes';
import type { pages } from '../src/content/pages';
import type { PrerenderedPage } from './prerender-pages.plugin';

/** A module under frontend/src and one of its exports, `<path without extension>#<export>`. */
type ModuleExport = `${string}#${string}`;

/**
 * A page a buyer sees, as src/pages/registry.ts lists it: the build writes its document, its entry
 * and its islands' module from this alone (vite/pages.plugin.ts).
 */
export interface PageDefinition {
  /**
   * Its path (`/<page>`, or a name of ROUTES where code links to it): the server answers it because
   * the build lists it, and the document goes where the server looks for it (`prerenderedDocument`).
   */
  route: string;
  /** Its document title: `pages.<title>.title` of the site's copy/pages.json (content/pages.ts). */
  title: keyof typeof pages;
  /** Its stylesheets under src/, in cascade order: the build inlines them into the document. */
  css: readonly string[];
  /** Its islands in page order, after the consent banner every page starts with. */
  islands: readonly ModuleExport[];
  /** What `#root` holds (a component placing the islands); by default the islands one after another. */
  document?: ModuleExport;
  /**
   * How its entry asks for the islands' code, `import('virtual:page/<page>-islands')`: a module
   * under src/ the entry runs after its stylesheets. By default once the first frame is painted,
   * React's runtime first (lib/island-loading.ts).
   */
  load?: string;
  /**
   * What its islands' code runs: a module under src/ that starts the islands of
   * `virtual:page/<page>-island-list`. By default `startPage` (page-islands.tsx).
   */
  start?: string;
  /** Text its markup must hold, or the build fails: by default a headline. */
  mustContain?: string;
  /** Another document of the same page, with its own islands (the granted /blackcard) and a JSON data block before them. */
  variant?: {
    name: string;
    output: string;
    islands: readonly ModuleExport[];
    dataBlock: { id: string; json: string };
    mustContain: string;
  };
}

/** Build-time only: checks nothing, types an entry of the registry. */
export const definePage = (page: PageDefinition): PageDefinition => page;

/** Every page's first island: its container is always there, empty until the site names an analytics id. */
const CONSENT_BANNER: ModuleExport = 'features/consent/components/consent-host#consentBannerIsland';

const VIRTUAL = 'virtual:page/';
/**
 * Where the generated modules seem to live (no file is there): Rolldown names a chunk after its
 * module's file (`<page>-islands-<hash>.js`), and the order of the modules a page's chunk shares
 * with an SPA route followed their ids, so with the hand-written modules' place the chunks come out
 * as they did.
 */
const GENERATED = '/src/pages/';
const SSR_TABLE = 'virtual:prerendered-pages';

/** A page's name: its route without the slash, `/` being the landing page. */
const pageName = (route: string): string => (route === ROUTES.landing ? 'landing' : route.slice(1));

/** The page's built HTML input, relative to frontend/: `/` must not take the SPA shell's index.html. */
const templateOf = (route: string): string => (route === ROUTES.landing ? 'landing.html' : `pages/${pageName(route)}.html`);

/** The name of the page's entry chunk. */
const inputName = (route: string): string => (route === ROUTES.landing ? 'landing' : `page-${pageName(route)}`);

/** The chunk-group pattern that matches a page's islands' module (vite.config.ts OWN_CHUNKS). */
export const islandsModuleOf = (name: string): string => `${GENERATED}${name}-islands.`;

/**
 * Writes every registered page from its entry: the document (frontend/index.html's head, the one
 * every public document shares, with the page's entry as its script), the entry (its stylesheets
 * and the call that asks for its islands), the islands' module (the list the browser hydrates) and,
 * for the SSR build, the table src/entry-server.tsx renders (`virtual:prerendered-pages`). None of
 * the registry reaches a page: each module holds only its own page's imports. The client build also
 * lists the pages' routes (`BUILT_PAGES_FILE`): the server answers those paths and no other.
 */
export function buyerPages({ root, pages: registered }: { root: string; pages: readonly PageDefinition[] }): Plugin {
  const src = (path: string) => resolve(root, 'src', path);
  const generated = resolve(root, `.${GENERATED}`) + '/';
  const byName = new Map(registered.map((page) => [pageName(page.route), page]));
  const byTemplate = new Map(registered.map((page) => [resolve(root, templateOf(page.route)), page]));
  const page = (name: string): PageDefinition => {
    const found = byName.get(name);
    if (!found) throw new Error(`pages: no page named ${name} in src/pages/registry.ts`);
    return found;
  };
  let ssr = false;
  return {
    name: 'clear:buyer-pages',
    enforce: 'pre',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle() {
      if (ssr) return;
      this.emitFile({ type: 'asset', fileName: BUILT_PAGES_FILE, source: JSON.stringify(registered.map((page) => page.route)) });
    },
    resolveId(id) {
      if (byTemplate.has(id)) return id;
      if (id === SSR_TABLE) return `${generated}prerendered-pages.js`;
      if (id.startsWith(VIRTUAL)) return `${generated}${id.slice(VIRTUAL.length)}.js`;
      return null;
    },
    load(id) {
      const document = byTemplate.get(id);
      if (document) return documentOf(root, pageName(document.route));
      if (!id.startsWith(generated) || !id.endsWith('.js')) return null;
      const module = id.slice(generated.length, -'.js'.length);
      if (module === 'prerendered-pages') return ssrTable(registered, src, moduleImports(src));
      const [, name, role] = /^(.+)-(client|islands|island-list)$/.exec(module) ?? [];
      if (!name) return null;
      const definition = page(name);
      if (role === 'client') return clientEntry(name, definition, src);
      if (role === 'islands' && definition.start) return `import ${JSON.stringify(src(definition.start))};\n`;
      const { lines, names } = moduleImports(src)([CONSENT_BANNER, ...definition.islands]);
      // In the order of their paths, as the hand-written modules imported them: it orders the chunk's code.
      lines.sort((a, b) => (a.split(' from ')[1] ?? '').localeCompare(b.split(' from ')[1] ?? ''));
      const start =
        role === 'island-list'
          ? `export const islands = [${names.join(', ')}];`
          : `import { startPage } from ${JSON.stringify(src('page-islands'))};\nstartPage([${names.join(', ')}]);`;
      return `${lines.join('\n')}\n${start}\n`;
    },
  };
}

type Imports = (refs: readonly ModuleExport[]) => { lines: string[]; names: string[] };

/**
 * The import lines of a generated module and the local name of each export: each under its own
 * name unless two modules export the same name.
 */
function moduleImports(src: (path: string) => string): Imports {
  const locals = new Map<string, string>();
  return (refs) => {
    const lines: string[] = [];
    const names = refs.map((ref) => {
      const [path, name] = ref.split('#') as [string, string];
      let local = locals.get(ref);
      if (!local) {
        local = [...locals.values()].includes(name) ? `${name}$${locals.size}` : name;
        locals.set(ref, local);
      }
      lines.push(`import { ${name === local ? name : `${name} as ${local}`} } from ${JSON.stringify(src(path))};`);
      return local;
    });
    return { lines, names };
  };
}

/** The build's inputs, by entry-chunk name: each page's document. */
export function pageInputs(root: string, pages: readonly PageDefinition[]): Record<string, string> {
  return Object.fromEntries(pages.map((page) => [inputName(page.route), resolve(root, templateOf(page.route))]));
}

/** What the prerender writes (vite/prerender-pages.plugin.ts): each page's document, and each variant's. */
export function prerenderedPages(pages: readonly PageDefinition[]): PrerenderedPage[] {
  return pages.flatMap((page) => {
    const template = templateOf(page.route);
    // Every page's scripts fetch at low priority, behind the document: its HTML paints on its own.
    const own = {
      name: pageName(page.route),
      template,
      output: prerenderedDocument(page.route) ?? template,
      lowPriorityScripts: true,
      mustContain: page.mustContain ?? '<h1',
    };
    const { variant } = page;
    return variant ? [own, { ...own, name: variant.name, output: variant.output, mustContain: variant.mustContain }] : [own];
  });
}

/** The shared head (index.html, the SPA's shell) with the page's entry in place of the SPA's. */
function documentOf(root: string, name: string): string {
  const shell = readFileSync(resolve(root, 'index.html'), 'utf8');
  const script = /<script type="module" src="[^"]+"><\/script>/g;
  if (shell.match(script)?.length !== 1)
    throw new Error('pages: index.html must load exactly one module script, the one each page replaces');
  return shell.replace(script, `<script type="module" src="${VIRTUAL}${name}-client"></script>`);
}

function clientEntry(name: string, page: PageDefinition, src: (path: string) => string): string {
  const css = page.css.map((path) => {
    if (!existsSync(src(path))) throw new Error(`pages: ${name}'s stylesheet src/${path} does not exist`);
    return `import ${JSON.stringify(src(path))};`;
  });
  const load = page.load
    ? `import ${JSON.stringify(src(page.load))};`
    : `import { loadIslandsAfterFirstFrame } from ${JSON.stringify(src('lib/island-loading'))};\n` +
      `loadIslandsAfterFirstFrame(() => import(${JSON.stringify(`${VIRTUAL}${name}-islands`)}));`;
  return `${css.join('\n')}\n${load}\n`;
}

/** The SSR build's table of pages (src/entry-server.tsx): title, islands and what `#root` holds. */
function ssrTable(pages: readonly PageDefinition[], src: (path: string) => string, imports: Imports): string {
  const lines = [
    `import { createElement } from 'react';`,
    `import { pages } from ${JSON.stringify(src('content/pages'))};`,
    `import { IslandDocument } from ${JSON.stringify(src('pages/island-document'))};`,
  ];
  const entries: string[] = [];
  const entry = (
    name: string,
    title: string,
    refs: readonly ModuleExport[],
    document?: ModuleExport,
    dataBlock?: { id: string; json: string },
  ) => {
    const islands = imports([CONSENT_BANNER, ...refs]);
    lines.push(...islands.lines);
    const list = `[${islands.names.join(', ')}]`;
    let Document = `() => createElement(IslandDocument, { islands: ${list}, dataBlock: ${JSON.stringify(dataBlock ?? null)} })`;
    if (document) {
      const own = imports([document]);
      lines.push(...own.lines);
      Document = own.names[0] ?? '';
    }
    entries.push(`${JSON.stringify(name)}: { title: pages[${JSON.stringify(title)}].title, islands: ${list}, Document: ${Document} }`);
  };
  for (const page of pages) {
    entry(pageName(page.route), page.title, page.islands, page.document);
    if (page.variant) entry(page.variant.name, page.title, page.variant.islands, undefined, page.variant.dataBlock);
  }
  return `${[...new Set(lines)].join('\n')}\nexport const islandPages = {\n${entries.join(',\n')}\n};\n`;
}
