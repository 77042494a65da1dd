import type { CreateLeadRequest, CreateLeadResponse } from '@contracts/api-types';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

export function createLead(lead: CreateLeadRequest): Promise<CreateLeadResponse> {
  return apiPost<CreateLeadResponse>('/api/leads', lead);
}

export function useCreateLead() {
  return useMutation({ mutationFn: createLead });
}
