import type { AdminLeadRow, AdminMemberRow, AdminOrderRow, AdminPage } from '@contracts/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

export type RecordKind = 'leads' | 'orders' | 'members';
export type RecordRow<K extends RecordKind> = K extends 'leads' ? AdminLeadRow : K extends 'orders' ? AdminOrderRow : AdminMemberRow;

export const PAGE_SIZE = 10;

function getRecords<K extends RecordKind>(kind: K, q: string, page: number, signal?: AbortSignal): Promise<AdminPage<RecordRow<K>>> {
  return apiRequest<AdminPage<RecordRow<K>>>('GET', withParams(`/api/admin/${kind}`, { q, page, pageSize: PAGE_SIZE }), { signal });
}

const recordsQuery = <K extends RecordKind>(kind: K, q: string, page: number) =>
  queryOptions({
    queryKey: ['api', 'admin', kind, q, page],
    queryFn: ({ signal }) => getRecords(kind, q, page, signal),
    placeholderData: keepPreviousData,
  });

export function useRecords<K extends RecordKind>(kind: K, q: string, page: number) {
  return useQuery(recordsQuery(kind, q, page));
}
