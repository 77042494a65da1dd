import type { AccountSessionResponse } from '@contracts/account';
import { apiPost } from '@/lib/api-client';

/** Exchanges the e-mailed link's token (once) for the account session cookie. */
export function openSession(token: string): Promise<AccountSessionResponse> {
  return apiPost<AccountSessionResponse>('/api/account/session', { token });
}
