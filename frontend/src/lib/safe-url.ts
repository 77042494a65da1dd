/**
 * Returns the URL when it is an absolute http(s) URL, else null. Server data (testimonials) is
 * admin-entered; anything else (javascript:, data:, relative paths) must never reach href or src.
 */
export function toSafeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
