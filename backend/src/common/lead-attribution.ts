import { parse } from 'cookie';
import { isSafeText } from './safe-text.validator';
import type { LeadAttribution } from '@contracts/api-types';

const MAX_COOKIE_VALUE = 500;

/**
 * First-party cookies set by the affiliate script, Google Analytics and the Meta pixel. Reading
 * them on the server at opt-in lets later conversions be attributed without the browser.
 * Cookies are not validated like the body: a value that is oversized or would not store (a
 * percent-encoded NUL decodes to a real one) is dropped rather than failing the lead.
 */
export function attributionFromRequest(body: LeadAttribution | undefined, cookieHeader: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    if (isSafeText(value) && value.trim()) result[key] = value.trim();
  }
  if (!cookieHeader) return result;
  const cookies = parse(cookieHeader);
  const take = (name: string, as: string) => {
    const value = cookies[name];
    if (value && value.length <= MAX_COOKIE_VALUE && isSafeText(value)) result[as] = value;
  };
  take('_fprom_tid', 'tid');
  take('_fbp', 'fbp');
  take('_fbc', 'fbc');
  // `_ga` is "GA1.1.<client id>": GA4's Measurement Protocol wants only the client id.
  const ga = cookies._ga?.match(/^GA\d\.\d+\.(\d+\.\d+)$/);
  if (ga) result.ga_client_id = ga[1];
  return result;
}
