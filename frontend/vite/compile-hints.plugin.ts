import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chrome 136+): every function of the file is compiled eagerly, off the main thread. */
const ALL_FUNCTIONS_CALLED_ON_LOAD = '//# allFunctionsCalledOnLoad';

/**
 * Marks the chunks whose code runs as a page hydrates (react-dom's) for eager compilation.
 * Without the hint V8 only pre-parses them while they stream in, then parses react-dom's functions
 * again on the main thread as hydration first calls them: the page's longest task. With it, that
 * work happens on a background thread while the file downloads.
 *
 * The hint must be the file's first line, and every transform of a chunk drops comments it does
 * not know, so it goes in once the files are final; the chunk's hash (its file name, cached for a
 * year) counts it in beforehand.
 */
export function compileHints({ modules }: { modules: readonly string[] }): Plugin {
  const hinted = (moduleIds: readonly string[]) => moduleIds.some((id) => modules.some((part) => id.includes(part)));
  return {
    name: 'clear:compile-hints',
    apply: 'build',
    enforce: 'post',
    augmentChunkHash(chunk) {
      return hinted(chunk.moduleIds) ? ALL_FUNCTIONS_CALLED_ON_LOAD : undefined;
    },
    // After every other plugin's: Vite's preload analysis puts a line of its own at the top of a
    // chunk with dynamic imports, and the hint must stay above it.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type === 'chunk' && hinted(output.moduleIds)) output.code = `${ALL_FUNCTIONS_CALLED_ON_LOAD}\n${output.code}`;
        }
      },
    },
  };
}
