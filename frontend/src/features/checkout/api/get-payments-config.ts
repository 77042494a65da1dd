import type { PaymentsConfigResponse } from '@contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const paymentsConfigKey = ['api', 'payments', 'config'] as const satisfies ApiQueryKey;

/** Which provider confirms cards in the browser: Stripe, or the offline sandbox. */
export function getPaymentsConfig({ signal }: { signal?: AbortSignal } = {}): Promise<PaymentsConfigResponse> {
  return apiGet<PaymentsConfigResponse>(paymentsConfigKey, { signal });
}

export const paymentsConfigQuery = queryOptions({
  queryKey: paymentsConfigKey,
  queryFn: getPaymentsConfig,
});

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQuery);
}
