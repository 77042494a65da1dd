import { parse } from 'cookie';
import type { LeadAttribution } from '../../shared/contracts/api-types';

/**
 * First-party cookies set by the affiliate script, Google Analytics and the Meta pixel. Reading
 * them on the server at opt-in lets later conversions be attributed without the browser.
 */
export function attributionFromRequest(
  body: LeadAttribution | undefined,
  cookieHeader: string | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    if (typeof value === 'string' && value.trim()) result[key] = value.trim();
  }
  if (!cookieHeader) return result;
  const cookies = parse(cookieHeader);
  const take = (name: string, as: string, max = 500) => {
    const value = cookies[name];
    if (value && value.length <= max) result[as] = value;
  };
  take('_fprom_tid', 'tid');
  take('_fbp', 'fbp');
  take('_fbc', 'fbc');
  // `_ga` is "GA1.1.<client id>": GA4's Measurement Protocol wants only the client id.
  const ga = cookies._ga?.match(/^GA\d\.\d+\.(\d+\.\d+)$/);
  if (ga) result.ga_client_id = ga[1];
  return result;
}
