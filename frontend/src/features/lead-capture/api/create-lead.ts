import type { CreateLeadRequest, CreateLeadResponse } from '@contracts/api-types';
import { apiPost } from '@/lib/api-client';

/** A plain call, no query library: the lead form is an island of the landing page and keeps its own pending state. */
export function createLead(lead: CreateLeadRequest): Promise<CreateLeadResponse> {
  return apiPost<CreateLeadResponse>('/api/leads', lead);
}
