/** What an erase replaces, and where it was found. */
export interface ScrubTerms {
  /** Stored forms of the person's e-mail address (as typed and normalised). */
  emails: string[];
  /** The person's stored names: replaced only in rows tied to their ids, as other people share names. */
  names: string[];
  erasedEmail: string;
  erasedName: string;
}

const MIN_NAME_FOR_SUBSTRING = 3;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces the person's e-mail (any case) and, in a tied row, their names inside one string. */
export function scrubText(text: string, terms: ScrubTerms, tied: boolean): string {
  let result = text;
  for (const email of terms.emails) result = result.replace(new RegExp(escapeRegExp(email), 'giu'), terms.erasedEmail);
  if (!tied) return result;
  for (const name of terms.names) {
    if (result.trim().toLowerCase() === name.toLowerCase()) return terms.erasedName;
    if (name.length >= MIN_NAME_FOR_SUBSTRING) result = result.replace(new RegExp(escapeRegExp(name), 'giu'), terms.erasedName);
  }
  return result;
}

/**
 * Walks a stored JSON document (a webhook event, an outbox payload, a ledger detail) and scrubs
 * every string value; keys lose the e-mail only, as a name-shaped key is more likely structure.
 */
export function scrubJson(value: unknown, terms: ScrubTerms, tied: boolean): unknown {
  if (typeof value === 'string') return scrubText(value, terms, tied);
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, terms, tied));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrubText(key, terms, false), scrubJson(item, terms, tied)]));
  }
  return value;
}
