/**
 * Keeps e-mail, name and invite token out of the address bar of /checkout and /success.
 *
 * The funnel's hand-offs carry them in the query string (spec section 3), and the links keep doing
 * so; but whatever stands in the address bar is what analytics and pixel scripts report (Meta's
 * `dl`, GA4's `page_location`, the next page's referrer). So the values move into session storage
 * and leave the address, by `history.replaceState` on a page load and inside `pushState` and
 * `replaceState` for the SPA's own navigations (the router's and the landing page's hand-over),
 * before the address ever changes. Each history entry names its values in `history.state`, so a
 * reload or a step back finds the same values, and a later visit without them finds none.
 *
 * The build inlines this function's source into the head of every public page
 * (vite/personal-query.plugin.ts), where it runs before any other script: every analytics,
 * pixel and affiliate script is added later by the page's module code. That is also why it uses
 * nothing from outside its own body. This file imports nothing, as vite.config.ts reads it.
 */
export interface PersonalQueryConfig {
  /** Page path (lower case, no trailing slash) → the query parameters that must leave its address. */
  pages: Readonly<Record<string, readonly string[]>>;
  /** The session storage key holding the moved values of the latest entries, by entry id. */
  storageKey: string;
  /** The field of `history.state` naming the entry's values: an id, or the values themselves when storage fails. */
  stateKey: string;
  /** How many entries' values session storage keeps. */
  keep: number;
}

const HAND_OFF_PERSONAL_PARAMS = ['email', 'name', 'token'] as const;

export const PERSONAL_QUERY: PersonalQueryConfig = {
  // The account page's sign-in token must not reach analytics either; the page reads it from here.
  pages: { '/checkout': HAND_OFF_PERSONAL_PARAMS, '/success': HAND_OFF_PERSONAL_PARAMS, '/account': ['token'] },
  storageKey: 'clear.personal-query.v1',
  stateKey: 'personalQuery',
  keep: 20,
};

export type PersonalValues = Record<string, string>;
type HistoryUrl = string | URL | null | undefined;

export function guardPersonalQuery({ pages, storageKey, stateKey, keep }: PersonalQueryConfig): void {
  const history = window.history;
  const push = history.pushState.bind(history);
  const replace = history.replaceState.bind(history);

  const remember = (values: PersonalValues): string | PersonalValues => {
    const id = `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      const all = JSON.parse(window.sessionStorage.getItem(storageKey) ?? '{}') as Record<string, PersonalValues>;
      all[id] = values;
      for (const old of Object.keys(all).slice(0, -keep)) delete all[old];
      window.sessionStorage.setItem(storageKey, JSON.stringify(all));
      return id;
    } catch {
      // Storage blocked or full: the entry carries the values itself (reloads still keep them).
      return values;
    }
  };

  const currentMark = (): unknown => (history.state as Record<string, unknown> | null)?.[stateKey];

  /** The state and address to write instead of the ones asked for. */
  const scrub = (state: unknown, url: HistoryUrl, sameEntry: boolean): [unknown, HistoryUrl] => {
    const target = new URL(url ?? window.location.href, window.location.href);
    const names = pages[target.pathname.toLowerCase().replace(/(.)\/+$/, '$1')];
    if (!names) return [state, url];
    const found = names.filter((name) => target.searchParams.has(name));
    let mark: unknown;
    let address = url;
    if (found.length > 0) {
      const values: PersonalValues = {};
      for (const name of found) {
        values[name] = target.searchParams.get(name) ?? '';
        target.searchParams.delete(name);
      }
      mark = remember(values);
      address = target.href;
    } else if (target.pathname === window.location.pathname && (sameEntry || target.search === window.location.search)) {
      // The same page rewriting its entry (the router does on start) or moving to an anchor keeps its values.
      mark = currentMark();
    }
    if (mark === undefined) return [state, url];
    const base = state !== null && typeof state === 'object' ? state : {};
    return [{ ...base, [stateKey]: mark }, address];
  };

  history.pushState = (state: unknown, unused: string, url?: HistoryUrl) => {
    const [nextState, nextUrl] = scrub(state, url, false);
    push(nextState, unused, nextUrl);
  };
  history.replaceState = (state: unknown, unused: string, url?: HistoryUrl) => {
    const [nextState, nextUrl] = scrub(state, url, true);
    replace(nextState, unused, nextUrl);
  };

  const [state, url] = scrub(history.state, null, true);
  if (url !== null) replace(state, '', url);
}
