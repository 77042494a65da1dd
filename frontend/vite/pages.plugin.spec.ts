import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_PAGES_FILE, prerenderedDocument } from '../../backend/src/contracts/route-table';
import { ROUTES } from '../../backend/src/contracts/routes';
import { PAGES } from '../src/pages/registry';
import { buyerPages, definePage, pageInputs, prerenderedPages } from './pages.plugin';

const root = join(__dirname, '..');

/** The plugin's resolve and load hooks, as the build calls them. */
function hooks(pages = PAGES) {
  const plugin = buyerPages({ root, pages });
  const resolveId = plugin.resolveId as (id: string) => string | null;
  const load = plugin.load as (id: string) => string | null;
  return { module: (id: string) => load(resolveId(id) ?? id) ?? '' };
}

const islandsCall = (code: string) => /startPage\(\[([^\]]*)\]\)/.exec(code)?.[1];

describe('the buyer pages, from their registry entries', () => {
  it("writes each page's document where the server looks for its route, and each is a build input", () => {
    const written = prerenderedPages(PAGES).filter((page) => page.name !== 'blackcard-granted');
    expect(written.map((page) => page.output)).toEqual(PAGES.map((page) => prerenderedDocument(page.route)));
    const inputs = pageInputs(root, PAGES);
    for (const page of prerenderedPages(PAGES)) expect(Object.values(inputs)).toContain(join(root, page.template));
  });

  it('lists the routes of the pages it builds for the server, in the client build only', () => {
    const emitted = (ssr: boolean) => {
      const plugin = buyerPages({ root, pages: PAGES.slice(0, 2) });
      const files: unknown[] = [];
      (plugin.configResolved as (config: unknown) => void)({ build: { ssr } });
      (plugin.generateBundle as (this: unknown) => void).call({ emitFile: (file: unknown) => files.push(file) });
      return files;
    };
    expect(emitted(false)).toEqual([
      { type: 'asset', fileName: BUILT_PAGES_FILE, source: JSON.stringify([ROUTES.landing, ROUTES.invitation]) },
    ]);
    expect(emitted(true)).toEqual([]);
  });

  it("gives every document index.html's head, with the page's own entry in place of the SPA's", () => {
    const shell = readFileSync(join(root, 'index.html'), 'utf8');
    const document = hooks().module(join(root, 'pages/upsell.html'));
    expect(document).toBe(shell.replace('/src/entry-client.tsx', 'virtual:page/upsell-client'));
  });

  it("has the entry import the page's stylesheets in order, then ask for its islands after the first frame", () => {
    const entry = hooks().module('virtual:page/upsell-client');
    const imports = [...entry.matchAll(/^import "([^"]+)";$/gm)].map(([, path]) => path);
    expect(imports).toEqual(
      ['styles/base.css', 'components/page-heading.css', 'features/upsell/upsell.css'].map((css) => join(root, 'src', css)),
    );
    expect(entry).toContain('loadIslandsAfterFirstFrame(() => import("virtual:page/upsell-islands"));');
  });

  it("runs a page's own load module instead, which asks for the islands itself", () => {
    const entry = hooks().module('virtual:page/checkout-client');
    expect(entry).toContain(`import ${JSON.stringify(join(root, 'src/pages/checkout.load'))};`);
    expect(entry).not.toContain('loadIslandsAfterFirstFrame');
    expect(readFileSync(join(root, 'src/pages/checkout.load.ts'), 'utf8')).toContain("import('virtual:page/checkout-islands')");
  });

  it("starts the consent banner first, then the page's islands in the registry's order", () => {
    expect(islandsCall(hooks().module('virtual:page/invitation-islands'))).toBe('consentBannerIsland, invitationIsland, toastIsland');
  });

  it("runs a page's own start module, which starts the same list", () => {
    const { module } = hooks();
    expect(module('virtual:page/success-islands')).toBe(`import ${JSON.stringify(join(root, 'src/pages/success.start'))};\n`);
    expect(module('virtual:page/success-island-list')).toContain('export const islands = [consentBannerIsland, successIsland];');
  });

  it('names an export two modules share apart, so a page may use both', () => {
    const page = definePage({
      route: ROUTES.upsell,
      title: 'upsell',
      css: [],
      islands: ['features/upsell/components/upsell-page#consentBannerIsland'],
    });
    expect(islandsCall(hooks([page]).module('virtual:page/upsell-islands'))).toBe('consentBannerIsland, consentBannerIsland$1');
  });

  it('fails the build on a stylesheet that does not exist, naming it', () => {
    const page = definePage({ route: ROUTES.upsell, title: 'upsell', css: ['features/upsell/missing.css'], islands: [] });
    expect(() => hooks([page]).module('virtual:page/upsell-client')).toThrow(
      "upsell's stylesheet src/features/upsell/missing.css does not exist",
    );
  });

  it('names only modules that exist, and exports they declare', () => {
    const refs = PAGES.flatMap((page) => [...page.islands, ...(page.document ? [page.document] : []), ...(page.variant?.islands ?? [])]);
    for (const ref of refs) {
      const [path, name] = ref.split('#') as [string, string];
      const file = ['.ts', '.tsx'].map((ext) => join(root, 'src', path + ext)).find((candidate) => existsSync(candidate));
      expect([ref, file !== undefined]).toEqual([ref, true]);
      expect([ref, readFileSync(file ?? '', 'utf8')]).toEqual([
        ref,
        expect.stringMatching(new RegExp(`export (const|function) ${name}\\b`)),
      ]);
    }
  });
});
