import type { AccountLinkRequest } from '@contracts/account';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

export function requestLink(request: AccountLinkRequest): Promise<Record<string, never>> {
  return apiPost<Record<string, never>>('/api/account/link', request);
}

export function useRequestLink() {
  return useMutation({ mutationFn: requestLink });
}
