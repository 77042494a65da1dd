import { Injectable } from '@nestjs/common';
import { JOBS, SandboxWebhookPayload } from '@contracts/jobs';
import { PaymentsConfig, ServerConfig } from '@core/config/config-sections';
import { sandboxDeliveryHeaders } from '@core/payments/providers/sandbox/sandbox-delivery';
import { OnJob } from '../jobs/on-job.decorator';
import { postOrUnavailable, ProviderUnavailableError } from '../clients/provider-call';

const SERVICE = 'Webhook endpoint';
const DELIVERY_TIMEOUT_MS = 10_000;

export type SandboxDeliveryOutcome = 'delivered' | 'delivered: duplicate';

/**
 * Delivers a sandbox event to our own webhook endpoint over HTTP, as Stripe would. The sandbox
 * now stores its events and owes their `payment-event` jobs itself (SandboxStore); this handler
 * stays for `sandbox-webhook` rows an older API owed (job names are persisted data).
 */
@Injectable()
export class SandboxWebhookHandler {
  constructor(
    private readonly payments: PaymentsConfig,
    private readonly server: ServerConfig,
  ) {}

  @OnJob(JOBS.sandboxWebhook)
  async deliver({ event }: SandboxWebhookPayload): Promise<SandboxDeliveryOutcome> {
    const payload = JSON.stringify(event);
    // Signed now, not when the job was owed: a retry minutes later is still inside the 300 s tolerance.
    const headers = sandboxDeliveryHeaders(payload, this.payments.SANDBOX_WEBHOOK_SECRET);
    const response = await postOrUnavailable(
      SERVICE,
      new URL('/api/webhooks/stripe', this.server.INTERNAL_API_URL ?? this.server.PUBLIC_URL).toString(),
      { headers, body: payload, timeoutMs: DELIVERY_TIMEOUT_MS },
    );
    const body = (await response
      .text()
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => null)) as { duplicate?: unknown } | null;
    // Stripe retries every non-2xx answer with backoff; so does this job.
    if (!response.ok) throw new ProviderUnavailableError(SERVICE, `answered ${response.status}`);
    return body?.duplicate === true ? 'delivered: duplicate' : 'delivered';
  }
}
