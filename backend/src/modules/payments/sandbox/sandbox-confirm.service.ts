import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { AppConfig } from '@core/config/app-config';
import type { SandboxCardError, SandboxConfirmRequest, SandboxConfirmResponse } from '@contracts/payments';
import type { SandboxWebhookEvent } from '@contracts/jobs';
import { CARD_ERRORS, readCard } from './sandbox-cards';
import { paymentIntentObject, SandboxObjectRow, setupIntentObject, stripeEvent } from '@core/payments/providers/sandbox/sandbox-events';
import { sandboxId } from '@core/payments/providers/sandbox/sandbox-ids';
import { SandboxStore } from '@core/payments/providers/sandbox/sandbox-store';

type IntentKind = 'payment_intent' | 'setup_intent';

const CLIENT_SECRET = /^(pi|seti)_[0-9A-Za-z]{24}_secret_[0-9A-Za-z]{24}$/;

/** Stripe's webhook event names for each intent kind. */
const EVENTS = {
  payment_intent: {
    succeeded: 'payment_intent.succeeded',
    failed: 'payment_intent.payment_failed',
    action: 'payment_intent.requires_action',
  },
  setup_intent: { succeeded: 'setup_intent.succeeded', failed: 'setup_intent.setup_failed', action: 'setup_intent.requires_action' },
} as const;

/**
 * What Stripe.js and Stripe's authentication page do in the browser, for the sandbox: confirm a
 * card on an intent (test-card outcomes) and complete or fail a 3-D Secure style authentication.
 */
@Injectable()
export class SandboxConfirmService {
  constructor(
    private readonly store: SandboxStore,
    private readonly config: AppConfig,
  ) {}

  async confirm(kind: IntentKind, request: SandboxConfirmRequest): Promise<SandboxConfirmResponse> {
    const returnUrl = this.ownUrl(request.returnUrl, 'returnUrl');
    return this.store.transaction(async (manager) => {
      const intent = await this.intentBySecret(kind, request.clientSecret, () =>
        this.store.findBySecret(manager, kind, request.clientSecret, true),
      );
      if (intent.status === 'succeeded' || intent.status === 'processing') return { intent: this.view(intent) };
      if (intent.status === 'canceled') {
        return {
          error: {
            type: 'invalid_request_error',
            code: `${kind}_unexpected_state`,
            message: 'This payment has been canceled. Please start again.',
          },
        };
      }
      const card = readCard(request.card);
      // Like Stripe.js, a card the form itself refuses never reaches the intent.
      if (!card.ok) return { error: card.error };

      const paymentMethodId = sandboxId('pm');
      const stored = { last4: card.last4, outcome: card.outcome };
      const events = EVENTS[kind];
      const declined = card.outcome === 'declined' || (card.outcome === 'insufficient_funds' && kind === 'payment_intent');
      if (declined) {
        const error: SandboxCardError = card.outcome === 'declined' ? CARD_ERRORS.declined : CARD_ERRORS.insufficient_funds;
        await this.store.update(
          manager,
          intent,
          { status: 'requires_payment_method', payment_method_id: paymentMethodId, card: stored, last_error: { ...error } },
          (row) => [this.event(kind, events.failed, row)],
        );
        return { error };
      }
      if (card.outcome === 'requires_authentication') {
        await this.store.update(
          manager,
          intent,
          { status: 'requires_action', payment_method_id: paymentMethodId, card: stored, last_error: null },
          (row) => [this.event(kind, events.action, row)],
        );
        const page = new URL('/api/sandbox/authenticate', this.config.PUBLIC_URL);
        page.searchParams.set('client_secret', request.clientSecret);
        page.searchParams.set('return_url', returnUrl.toString());
        return { redirectUrl: page.toString() };
      }
      const done = await this.store.update(
        manager,
        intent,
        { status: 'succeeded', payment_method_id: paymentMethodId, card: stored, last_error: null },
        (row) => [this.event(kind, events.succeeded, row)],
      );
      return { intent: this.view(done) };
    });
  }

  /** The authentication page may be shown only for an intent that is waiting for it. */
  async pendingAuthentication(clientSecret: string, returnUrl: string): Promise<{ kind: IntentKind; returnUrl: URL }> {
    const url = this.ownUrl(returnUrl, 'return_url');
    const kind = kindOf(clientSecret);
    const intent = await this.store.transaction((manager) =>
      this.intentBySecret(kind, clientSecret, () => this.store.findBySecret(manager, kind, clientSecret)),
    );
    if (intent.status !== 'requires_action') throw new NotFoundException('This payment is not waiting for authentication.');
    return { kind, returnUrl: url };
  }

  /**
   * Completes or fails the authentication and answers with Stripe's return URL: the intent id,
   * its client secret and redirect_status. A repeated click finds the intent settled and returns
   * its outcome again.
   */
  async authenticate(clientSecret: string, returnUrl: string, outcome: 'complete' | 'fail'): Promise<string> {
    const url = this.ownUrl(returnUrl, 'return_url');
    const kind = kindOf(clientSecret);
    const intent = await this.store.transaction(async (manager) => {
      const found = await this.intentBySecret(kind, clientSecret, () => this.store.findBySecret(manager, kind, clientSecret, true));
      if (found.status !== 'requires_action') return found;
      const events = EVENTS[kind];
      return outcome === 'complete'
        ? this.store.update(
            manager,
            found,
            { status: 'succeeded', payment_method_id: found.payment_method_id, card: found.card, last_error: null },
            (row) => [this.event(kind, events.succeeded, row)],
          )
        : this.store.update(
            manager,
            found,
            {
              status: 'requires_payment_method',
              payment_method_id: found.payment_method_id,
              card: found.card,
              last_error: { ...CARD_ERRORS.authentication_failed },
            },
            (row) => [this.event(kind, events.failed, row)],
          );
    });
    url.searchParams.set(kind, intent.id);
    url.searchParams.set(`${kind}_client_secret`, clientSecret);
    url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
    return url.toString();
  }

  private async intentBySecret(
    kind: IntentKind,
    clientSecret: string,
    find: () => Promise<SandboxObjectRow | null>,
  ): Promise<SandboxObjectRow> {
    const found = CLIENT_SECRET.test(clientSecret) && kindOf(clientSecret) === kind ? await find() : null;
    if (!found) throw new NotFoundException(`No ${kind === 'payment_intent' ? 'payment' : 'card setup'} matches this client secret.`);
    return found;
  }

  /** Only pages of this site: the sandbox must not become an open redirect. */
  private ownUrl(value: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new BadRequestException(`${field} must be an absolute URL of this site`);
    }
    if (url.origin !== new URL(this.config.PUBLIC_URL).origin) throw new BadRequestException(`${field} must be a page of this site`);
    return url;
  }

  private event(kind: IntentKind, type: string, row: SandboxObjectRow): SandboxWebhookEvent {
    return stripeEvent(type, kind === 'payment_intent' ? paymentIntentObject(row) : setupIntentObject(row));
  }

  private view(row: SandboxObjectRow) {
    return { id: row.id, status: row.status, object: row.object as IntentKind };
  }
}

function kindOf(clientSecret: string): IntentKind {
  return clientSecret.startsWith('seti_') ? 'setup_intent' : 'payment_intent';
}
