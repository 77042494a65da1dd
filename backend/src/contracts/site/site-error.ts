/** A site folder that cannot be used, with every problem named by file, field and what is wrong. */
export class SiteError extends Error {
  override name = 'SiteError';
}
