import { ROUTES } from '@contracts/routes';

/**
 * Query strings of the funnel's hand-offs (spec section 3). A key whose value is undefined or null
 * is left out; an empty string is kept, for hand-offs that always carry a key.
 */
export type HandOffParams = Record<string, string | null | undefined>;

export function withQuery(path: string, params: HandOffParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.set(key, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Optional hand-off values travel only when they have content. */
export function present(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

export function checkoutHref(params: HandOffParams): string {
  return withQuery(ROUTES.checkout, params);
}
