// Its own module, without the schema (zod): copy checks (./site-copy.ts) throw it, and the plan
// catalogue the browser bundle holds imports that module.

/** A site folder that cannot be used, with every problem named by file, field and what is wrong. */
export class SiteError extends Error {
  override name = 'SiteError';
}
