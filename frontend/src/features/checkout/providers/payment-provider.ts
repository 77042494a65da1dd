import type { PaymentsConfigResponse } from '@contracts/payments';
import type { PaymentProvider } from './provider-types';

const loaded = new Map<string, Promise<PaymentProvider>>();

/**
 * Loads the configured provider's code, once per page load for each configuration (every checkout
 * of the visit shares it). Each is a separate chunk, so in sandbox mode Stripe's library is never
 * fetched and no request goes to a Stripe host. Rejects when Stripe.js cannot load, and a failed
 * load is forgotten so the next checkout tries again.
 */
export function loadPaymentProvider(config: PaymentsConfigResponse): Promise<PaymentProvider> {
  const key = `${config.provider}:${config.publishableKey ?? ''}`;
  let provider = loaded.get(key);
  if (!provider) {
    provider = createPaymentProvider(config);
    loaded.set(key, provider);
    provider.catch(() => loaded.delete(key));
  }
  return provider;
}

/** The configured provider's chunk (one import of each, which the preload and the provider share). */
function providerCode(config: PaymentsConfigResponse) {
  return config.provider === 'stripe' ? import('./stripe-provider') : import('./sandbox-provider');
}

async function createPaymentProvider(config: PaymentsConfigResponse): Promise<PaymentProvider> {
  const code = await providerCode(config);
  if (!('createStripeProvider' in code)) return code.sandboxProvider;
  if (!config.publishableKey) throw new Error('Stripe is configured without a publishable key');
  return code.createStripeProvider(config.publishableKey);
}

/**
 * Fetches the configured provider's code without starting it (Stripe.js itself is injected only
 * when the provider is created): /checkout's document calls it as soon as the config is known.
 */
export async function preloadPaymentProviderCode(config: PaymentsConfigResponse): Promise<void> {
  await providerCode(config);
}
