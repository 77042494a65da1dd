import type { SandboxConfirmResponse, SandboxNextActionRequest } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** The sandbox's stand-in for `stripe.handleNextAction`: the authentication page to visit, or the payment as it stands. */
export function sandboxNextAction(request: SandboxNextActionRequest): Promise<SandboxConfirmResponse> {
  return apiPost<SandboxConfirmResponse>('/api/sandbox/next-action', request);
}
