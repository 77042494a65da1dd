import type { InvitationGateRequest, InvitationGateResponse } from '@contracts/invitations';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

export function submitInvitation(request: InvitationGateRequest): Promise<InvitationGateResponse> {
  return apiPost<InvitationGateResponse>('/api/invitation-gate', request);
}

export function useSubmitInvitation() {
  return useMutation({ mutationFn: submitInvitation });
}
