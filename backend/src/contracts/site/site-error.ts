/**
 * A site folder that cannot be used, with every problem named by file, field and what is wrong.
 * In a module of its own so that the browser code that fills copy (./site-copy.ts) does not
 * bring zod and the schemas, which only the server and the build run, into every page.
 */
export class SiteError extends Error {
  override name = 'SiteError';
}
