import type { AdminBillingOrder, AdminPage } from '@contracts/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

export const ORDERS_PAGE_SIZE = 10;

function getBillingOrders(q: string, page: number, signal?: AbortSignal): Promise<AdminPage<AdminBillingOrder>> {
  return apiRequest<AdminPage<AdminBillingOrder>>('GET', withParams('/api/admin/billing/orders', { q, page, pageSize: ORDERS_PAGE_SIZE }), {
    signal,
  });
}

const billingOrdersQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: ['api', 'admin', 'billing', 'orders', q, page],
    queryFn: ({ signal }) => getBillingOrders(q, page, signal),
    placeholderData: keepPreviousData,
  });

export function useBillingOrders(q: string, page: number) {
  return useQuery(billingOrdersQuery(q, page));
}
