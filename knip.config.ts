import type { KnipConfig } from 'knip';

/** What this config reads of a page in frontend/src/pages/registry.ts (vite/pages.plugin.ts `PageDefinition`). */
interface RegisteredPage {
  islands: readonly string[];
  document?: string;
  load?: string;
  start?: string;
  variant?: { islands: readonly string[] };
}

/**
 * The page registry names its modules in strings (`features/x/components/y#yIsland`) that the build
 * turns into imports (frontend/vite/pages.plugin.ts), so each is an entry of the SPA's build. The
 * path sits in a variable so the server's type-check does not follow it into the SPA.
 */
const registryEntries = async (): Promise<string[]> => {
  const registry = './frontend/src/pages/registry';
  const { PAGES } = (await import(registry)) as { PAGES: readonly RegisteredPage[] };
  const modules = PAGES.flatMap((page) => [
    ...page.islands,
    ...(page.variant?.islands ?? []),
    ...[page.document, page.load, page.start].filter((module) => module !== undefined),
  ]);
  return [...new Set(modules.map((module) => `src/${module.split('#')[0]}.{ts,tsx}`))];
};

/**
 * Unused files, exports and dependencies (`npm run lint`). Knip's plugins find the entries the
 * tools declare (jest's projects, Playwright's specs, ESLint, Stryker, Vite's index.html); these are
 * the rest: the processes' and scripts' entry points, and the SPA's modules the build imports by name.
 */
const config = async (): Promise<KnipConfig> => ({
  // Programs of the machine, not packages: Debian's, which scripts/system-packages.mjs installs.
  ignoreBinaries: ['apt-get', 'redis-server'],
  workspaces: {
    '.': {
      ignoreDependencies: [
        // The web bench imports it through a real dynamic import (tests/bench/web.bench.ts) that
        // Knip cannot read, so that TypeScript does not turn the ESM-only package into require().
        'lighthouse',
        // `npm run dev` starts the SPA workspace's own Vite (scripts/dev.ts), which
        // frontend/package.json declares: one version, the one the SPA builds with.
        'vite',
      ],
      entry: [
        'backend/src/main.ts',
        'worker/src/main.ts',
        'scripts/*.{ts,mjs}',
        'scripts/lint/*.mjs',
        // Started as a process of its own by the launch bench (launch.bench.ts).
        'tests/bench/smtp-sink-process.ts',
      ],
      project: ['**/*.{ts,js,mjs}'],
      playwright: { config: ['tests/e2e/playwright.config.ts'] },
    },
    frontend: {
      entry: [
        'admin.html',
        'src/entry-server.tsx',
        // What the generated page entries import besides the registry's modules (vite/pages.plugin.ts).
        'src/page-islands.tsx',
        'src/lib/island-loading.ts',
        'src/pages/island-document.tsx',
        'src/features/consent/components/consent-host.tsx',
        ...(await registryEntries()),
      ],
      project: ['**/*.{ts,tsx}'],
    },
  },
});

export default config;
