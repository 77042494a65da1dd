import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ServerConfig } from '../../../config/config-sections';
import type { SandboxCardError, SandboxConfirmRequest, SandboxConfirmResponse, SandboxNextActionRequest } from '@contracts/payments';
import type { SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';
import { PaymentNotFoundError, PaymentRefusedError } from '../../payment-gateway';
import { CARD_ERRORS } from './sandbox-card-errors';
import { asksForAuthentication, readCard } from './sandbox-cards';
import { intentEvent, invoiceObject, SandboxIntentKind, stripeEvent, subscriptionObject } from './sandbox-events';
import { firstInvoiceId, intentKindOfSecret, isClientSecret, sandboxId } from './sandbox-ids';
import { SandboxStore } from './sandbox-store';

export const NOT_WAITING_FOR_AUTHENTICATION = 'This payment is not waiting for authentication.';

/**
 * What Stripe.js and Stripe's authentication page do in the browser, for the sandbox: confirm a
 * card on an intent (test-card outcomes) and complete or fail a 3-D Secure style authentication.
 * An unknown intent is a PaymentNotFoundError, an address not of this site a PaymentRefusedError
 * (the routes answer 404 and 400, common/provider-answers.ts).
 */
@Injectable()
export class SandboxConfirmService {
  constructor(
    private readonly store: SandboxStore,
    private readonly config: ServerConfig,
  ) {}

  async confirm(kind: SandboxIntentKind, request: SandboxConfirmRequest): Promise<SandboxConfirmResponse> {
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
      // Declines when charged; a card setup only attaches the card, so 9995 and 0341 save fine.
      const declined =
        card.outcome === 'declined' ||
        ((card.outcome === 'insufficient_funds' || card.outcome === 'attaches_then_fails') && kind === 'payment_intent');
      if (declined) {
        const error: SandboxCardError = card.outcome === 'insufficient_funds' ? CARD_ERRORS.insufficient_funds : CARD_ERRORS.declined;
        await this.store.update(
          manager,
          intent,
          { status: 'requires_payment_method', payment_method_id: paymentMethodId, card: stored, last_error: { ...error } },
          (row) => [intentEvent(kind, 'failed', row)],
        );
        return { error };
      }
      if (asksForAuthentication(card.outcome)) {
        await this.store.update(
          manager,
          intent,
          { status: 'requires_action', payment_method_id: paymentMethodId, card: stored, last_error: null },
          (row) => [intentEvent(kind, 'requires_action', row)],
        );
        return { redirectUrl: this.authenticationPage(request.clientSecret, returnUrl) };
      }
      const done = await this.store.update(
        manager,
        intent,
        { status: 'succeeded', payment_method_id: paymentMethodId, card: stored, last_error: null },
        (row) => [intentEvent(kind, 'succeeded', row)],
      );
      return { intent: this.view(done) };
    });
  }

  /**
   * Stripe.js's handleNextAction: a payment the server confirmed (a subscription's first payment)
   * that waits for the bank's authentication sends the browser to the authentication page; any
   * other state is answered as it stands.
   */
  async nextAction(request: SandboxNextActionRequest): Promise<SandboxConfirmResponse> {
    const returnUrl = this.ownUrl(request.returnUrl, 'returnUrl');
    const kind = intentKindOfSecret(request.clientSecret);
    const intent = await this.store.transaction((manager) =>
      this.intentBySecret(kind, request.clientSecret, () => this.store.findBySecret(manager, kind, request.clientSecret)),
    );
    if (intent.status === 'requires_action') return { redirectUrl: this.authenticationPage(request.clientSecret, returnUrl) };
    if (intent.status === 'requires_payment_method' && intent.last_error)
      return { error: intent.last_error as unknown as SandboxCardError };
    return { intent: this.view(intent) };
  }

  /** The authentication page may be shown only for an intent that is waiting for it. */
  async pendingAuthentication(clientSecret: string, returnUrl: string): Promise<{ kind: SandboxIntentKind; returnUrl: URL }> {
    const url = this.ownUrl(returnUrl, 'return_url');
    const kind = intentKindOfSecret(clientSecret);
    const intent = await this.store.transaction((manager) =>
      this.intentBySecret(kind, clientSecret, () => this.store.findBySecret(manager, kind, clientSecret)),
    );
    if (intent.status !== 'requires_action') throw new PaymentNotFoundError(NOT_WAITING_FOR_AUTHENTICATION);
    return { kind, returnUrl: url };
  }

  /**
   * Completes or fails the authentication and answers with Stripe's return URL: the intent id,
   * its client secret and redirect_status. A repeated click finds the intent settled and returns
   * its outcome again.
   */
  async authenticate(clientSecret: string, returnUrl: string, outcome: 'complete' | 'fail'): Promise<string> {
    const url = this.ownUrl(returnUrl, 'return_url');
    const kind = intentKindOfSecret(clientSecret);
    const intent = await this.store.transaction(async (manager) => {
      const found = await this.intentBySecret(kind, clientSecret, () => this.store.findBySecret(manager, kind, clientSecret, true));
      if (found.status !== 'requires_action') return found;
      // A payment of an order that holds a subscription is that subscription's first payment:
      // its outcome is told through the subscription and its invoice, as Stripe does.
      const subscription = kind === 'payment_intent' ? await this.store.findForOrder(manager, 'subscription', found.order_id, true) : null;
      const settled =
        outcome === 'complete'
          ? { status: 'succeeded', payment_method_id: found.payment_method_id, card: found.card, last_error: null }
          : {
              status: 'requires_payment_method',
              payment_method_id: found.payment_method_id,
              card: found.card,
              last_error: { ...CARD_ERRORS.authentication_failed },
            };
      if (!subscription) {
        return this.store.update(manager, found, settled, (row) => [
          intentEvent(kind, outcome === 'complete' ? 'succeeded' : 'failed', row),
        ]);
      }
      const updated = await this.store.update(manager, found, settled, () => []);
      await this.settleFirstInvoice(manager, subscription, outcome === 'complete');
      return updated;
    });
    url.searchParams.set(kind, intent.id);
    url.searchParams.set(`${kind}_client_secret`, clientSecret);
    url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
    return url.toString();
  }

  /** The subscription's first invoice is paid (the subscription becomes active) or stays unpaid. */
  private async settleFirstInvoice(manager: EntityManager, subscription: SandboxObjectRow, paid: boolean): Promise<void> {
    const invoice = (row: SandboxObjectRow) => invoiceObject(row, firstInvoiceId(row), paid);
    if (!paid || subscription.status !== 'incomplete') {
      await this.store.update(manager, subscription, subscription, (row) => [stripeEvent('invoice.payment_failed', invoice(row))]);
      return;
    }
    await this.store.update(manager, subscription, { ...subscription, status: 'active' }, (row) => [
      stripeEvent('invoice.paid', invoice(row)),
      stripeEvent('customer.subscription.updated', subscriptionObject(row, firstInvoiceId(row))),
    ]);
  }

  private authenticationPage(clientSecret: string, returnUrl: URL): string {
    const page = new URL('/api/sandbox/authenticate', this.config.PUBLIC_URL);
    page.searchParams.set('client_secret', clientSecret);
    page.searchParams.set('return_url', returnUrl.toString());
    return page.toString();
  }

  private async intentBySecret(
    kind: SandboxIntentKind,
    clientSecret: string,
    find: () => Promise<SandboxObjectRow | null>,
  ): Promise<SandboxObjectRow> {
    const found = isClientSecret(clientSecret) && intentKindOfSecret(clientSecret) === kind ? await find() : null;
    if (!found) throw new PaymentNotFoundError(`No ${kind === 'payment_intent' ? 'payment' : 'card setup'} matches this client secret.`);
    return found;
  }

  /** Only pages of this site: the sandbox must not become an open redirect. */
  private ownUrl(value: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new PaymentRefusedError(`${field} must be an absolute URL of this site`);
    }
    if (url.origin !== new URL(this.config.PUBLIC_URL).origin) throw new PaymentRefusedError(`${field} must be a page of this site`);
    return url;
  }

  private view(row: SandboxObjectRow) {
    return { id: row.id, status: row.status, object: row.object as SandboxIntentKind };
  }
}
