import type { PaymentsConfigResponse } from '@contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const paymentsConfigKey = ['api', 'payments', 'config'] as const satisfies ApiQueryKey;

/** Which provider confirms cards in the browser: Stripe, or the offline sandbox. */
export function getPaymentsConfig({ signal }: { signal?: AbortSignal } = {}): Promise<PaymentsConfigResponse> {
  return apiGet<PaymentsConfigResponse>(paymentsConfigKey, { signal });
}

let early: Promise<PaymentsConfigResponse> | null = null;

/**
 * Asks for the config before the SPA has rendered (the /checkout document's entry,
 * src/pages/checkout-client.ts), so the provider's code loads while the screen's own code does.
 * The query below adopts the answer once instead of asking again.
 */
export function fetchPaymentsConfigEarly(): Promise<PaymentsConfigResponse> {
  early = getPaymentsConfig();
  return early;
}

export const paymentsConfigQuery = queryOptions({
  queryKey: paymentsConfigKey,
  queryFn: ({ signal }) => {
    const answer = early ?? getPaymentsConfig({ signal });
    early = null;
    return answer;
  },
});

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQuery);
}
