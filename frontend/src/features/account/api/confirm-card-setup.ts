import type { SandboxConfirmRequest, SandboxConfirmResponse } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** The sandbox's stand-in for Stripe.js's confirmSetup, for the account's new card. */
export function confirmCardSetup(request: SandboxConfirmRequest): Promise<SandboxConfirmResponse> {
  return apiPost<SandboxConfirmResponse>('/api/sandbox/confirm-setup', request);
}
