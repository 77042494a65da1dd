import type { AdminAuditRow, AdminPage } from '@contracts/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

export const AUDIT_PAGE_SIZE = 15;
export const auditKey = ['api', 'admin', 'audit'] as const;

function getAudit(page: number, signal?: AbortSignal): Promise<AdminPage<AdminAuditRow>> {
  return apiRequest<AdminPage<AdminAuditRow>>('GET', withParams('/api/admin/audit', { page, pageSize: AUDIT_PAGE_SIZE }), { signal });
}

const auditQuery = (page: number) =>
  queryOptions({ queryKey: [...auditKey, page], queryFn: ({ signal }) => getAudit(page, signal), placeholderData: keepPreviousData });

export function useAudit(page: number) {
  return useQuery(auditQuery(page));
}
