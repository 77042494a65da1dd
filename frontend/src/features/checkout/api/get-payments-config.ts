import type { PaymentsConfigResponse } from '@contracts/payments';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

const paymentsConfigKey = ['api', 'payments', 'config'] as const satisfies ApiQueryKey;

let asked: Promise<PaymentsConfigResponse> | null = null;

/**
 * Which provider confirms cards in the browser: Stripe, or the offline sandbox. Asked once per page
 * load: /checkout's entry (src/pages/checkout.load.ts) asks before the screen's code has arrived,
 * so the provider's code loads while the screen's does, and the screen then adopts that answer.
 * A failed answer is forgotten, so the next checkout asks again.
 */
export function getPaymentsConfig(): Promise<PaymentsConfigResponse> {
  if (!asked) {
    const answer = apiGet<PaymentsConfigResponse>(paymentsConfigKey);
    asked = answer;
    answer.catch(() => {
      if (asked === answer) asked = null;
    });
  }
  return asked;
}
