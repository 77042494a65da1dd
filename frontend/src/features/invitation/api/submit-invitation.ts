import type { InvitationGateRequest, InvitationGateResponse } from '@contracts/invitations';
import { apiPost } from '@/lib/api-client';

/** A plain call, no query library: the form is an island of the prerendered /invitation and keeps its own pending state. */
export function submitInvitation(request: InvitationGateRequest): Promise<InvitationGateResponse> {
  return apiPost<InvitationGateResponse>('/api/invitation-gate', request);
}
