import { PERSONAL_QUERY, type PersonalValues } from './personal-query-guard';
import { sessionStore } from './storage';

/** What the guard moved out of the current history entry's address (an id into storage, or the values). */
function movedValues(): PersonalValues {
  const mark = (window.history.state as Record<string, unknown> | null)?.[PERSONAL_QUERY.stateKey];
  const values = typeof mark === 'string' ? sessionStore.getJson<Record<string, unknown>>(PERSONAL_QUERY.storageKey)?.[mark] : mark;
  if (!values || typeof values !== 'object') return {};
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * The query string of the current page as the link to it wrote it: the address as it stands plus
 * the e-mail, name and token that personal-query-guard.ts moved out of it. Call it once per
 * navigation (the route's location), while that location's history entry is the current one.
 */
export function pageQuery(search: string): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(movedValues())) {
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/**
 * Forgets one value the guard moved out of the current entry's address (a sign-in token once it
 * is used up), so a reload or a step back no longer finds it. Values kept in the history state
 * itself (session storage blocked) stay until the tab closes.
 */
export function forgetPageQueryValue(name: string): void {
  const mark = (window.history.state as Record<string, unknown> | null)?.[PERSONAL_QUERY.stateKey];
  if (typeof mark !== 'string') return;
  const all = sessionStore.getJson<Record<string, Record<string, unknown>>>(PERSONAL_QUERY.storageKey);
  const values = all?.[mark];
  if (!all || !values || !(name in values)) return;
  delete values[name];
  sessionStore.setJson(PERSONAL_QUERY.storageKey, all);
}
