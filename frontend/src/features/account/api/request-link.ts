import type { AccountLinkRequest } from '@contracts/account';
import { apiPost } from '@/lib/api-client';

export function requestLink(request: AccountLinkRequest): Promise<Record<string, never>> {
  return apiPost<Record<string, never>>('/api/account/link', request);
}
