import Stripe from 'stripe';
import type { AppConfig } from '../../../config/app-config';
import {
  CreatedIntent,
  CreatedSubscription,
  GatewayOrder,
  idempotencyKey,
  PaymentGateway,
  PaymentRefusedError,
  priceLookupKey,
  ProviderState,
  STRIPE_API_VERSION,
} from '../../payment-gateway';

/** The Stripe SDK client of this configuration (host, port and protocol point tests at a fake). */
export function stripeClient(config: AppConfig): Stripe {
  return new Stripe(config.STRIPE_SECRET_KEY ?? '', {
    apiVersion: STRIPE_API_VERSION,
    host: config.STRIPE_API_HOST,
    port: config.STRIPE_API_PORT,
    protocol: config.STRIPE_API_PROTOCOL,
    // Safe to retry: every write below carries an idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}

const metadataOf = (order: GatewayOrder) => ({ order_id: order.id, plan_id: order.plan.id });

/**
 * Stripe: subscriptions start with a SetupIntent (card saved off-session) and are created by
 * confirm-subscription; one-time plans are a PaymentIntent that also saves the card on the
 * customer, so a later upgrade can reuse it.
 */
export class StripeGateway implements PaymentGateway {
  readonly provider = 'stripe' as const;

  constructor(private readonly stripe: Stripe) {}

  async createSetupIntent(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = await this.customerFor(order);
    const intent = await this.stripe.setupIntents.create(
      { customer: customerId, usage: 'off_session', automatic_payment_methods: { enabled: true }, metadata: metadataOf(order) },
      { idempotencyKey: idempotencyKey(order.id, 'create-setup-intent') },
    );
    return { intentId: intent.id, clientSecret: requireSecret(intent.client_secret), customerId };
  }

  async createPaymentIntent(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = await this.customerFor(order);
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: order.amountCents,
        currency: order.currency,
        customer: customerId,
        setup_future_usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        description: order.plan.name,
        metadata: metadataOf(order),
      },
      { idempotencyKey: idempotencyKey(order.id, 'create-payment-intent') },
    );
    return { intentId: intent.id, clientSecret: requireSecret(intent.client_secret), customerId };
  }

  async createSubscription(order: GatewayOrder, setupIntentId: string): Promise<CreatedSubscription> {
    const setup = await this.stripe.setupIntents.retrieve(setupIntentId);
    if (setup.metadata?.order_id !== order.id) throw new PaymentRefusedError('This card confirmation belongs to another checkout.');
    if (setup.status !== 'succeeded')
      throw new PaymentRefusedError('Your card has not been confirmed yet. Please complete the card details and try again.');
    const paymentMethodId = idOf(setup.payment_method);
    const customerId = idOf(setup.customer) ?? order.customerId;
    if (!paymentMethodId || !customerId)
      throw new PaymentRefusedError('Your card has not been confirmed yet. Please complete the card details and try again.');

    await this.stripe.customers.update(
      customerId,
      { invoice_settings: { default_payment_method: paymentMethodId } },
      { idempotencyKey: idempotencyKey(order.id, 'set-default-payment-method') },
    );
    const price = await this.priceFor(order);
    const subscription = await this.stripe.subscriptions.create(
      {
        customer: customerId,
        items: [{ price: price.id }],
        default_payment_method: paymentMethodId,
        off_session: true,
        metadata: metadataOf(order),
        expand: ['latest_invoice.payment_intent'],
      },
      { idempotencyKey: idempotencyKey(order.id, 'create-subscription') },
    );
    return { subscriptionId: subscription.id, status: subscription.status, customerId, paymentMethodId };
  }

  async retrievePaymentIntent(id: string): Promise<ProviderState> {
    const intent = await this.stripe.paymentIntents.retrieve(id);
    return { status: intent.status, hasError: Boolean(intent.last_payment_error) };
  }

  async retrieveSetupIntent(id: string): Promise<ProviderState> {
    const intent = await this.stripe.setupIntents.retrieve(id);
    return { status: intent.status, hasError: Boolean(intent.last_setup_error) };
  }

  async retrieveSubscription(id: string): Promise<ProviderState> {
    const subscription = await this.stripe.subscriptions.retrieve(id);
    return { status: subscription.status, hasError: false };
  }

  /** The customer of an earlier order with this e-mail, else Stripe's customer with it, else a new one. */
  private async customerFor(order: GatewayOrder): Promise<string> {
    if (order.customerId) return order.customerId;
    const existing = await this.stripe.customers.list({ email: order.email, limit: 1 });
    if (existing.data[0]) return existing.data[0].id;
    const customer = await this.stripe.customers.create(
      { email: order.email, name: order.name, metadata: { order_id: order.id } },
      { idempotencyKey: idempotencyKey(order.id, 'create-customer') },
    );
    return customer.id;
  }

  /** The plan's monthly Price, found by lookup key or created once (the key makes concurrent creations one). */
  private async priceFor(order: GatewayOrder): Promise<Stripe.Price> {
    const lookupKey = priceLookupKey(order.plan);
    const found = await this.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0];
    return this.stripe.prices.create(
      {
        currency: order.currency,
        unit_amount: order.amountCents,
        recurring: { interval: 'month' },
        lookup_key: lookupKey,
        product_data: { name: order.plan.name },
      },
      { idempotencyKey: `price:${lookupKey}:${order.amountCents}` },
    );
  }
}

function requireSecret(secret: string | null): string {
  if (!secret) throw new Error('Stripe returned an intent without a client secret');
  return secret;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
