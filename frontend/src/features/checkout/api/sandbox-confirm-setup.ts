import type { SandboxConfirmRequest, SandboxConfirmResponse } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** The sandbox's stand-in for `stripe.confirmSetup({ redirect: 'if_required' })`. */
export function sandboxConfirmSetup(request: SandboxConfirmRequest): Promise<SandboxConfirmResponse> {
  return apiPost<SandboxConfirmResponse>('/api/sandbox/confirm-setup', request);
}
