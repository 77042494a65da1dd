import type { SandboxConfirmRequest, SandboxConfirmResponse } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** The sandbox's stand-in for `stripe.confirmPayment({ redirect: 'if_required' })`. */
export function sandboxConfirmPayment(request: SandboxConfirmRequest): Promise<SandboxConfirmResponse> {
  return apiPost<SandboxConfirmResponse>('/api/sandbox/confirm-payment', request);
}
