import { notify } from '@/components/toast/notify';
import { checkout as copy } from '@/content/checkout';
import { ApiError } from '@/lib/api-client';

type InitFailure = { title: string; fallback: string; networkFallback: string };

/**
 * Spec section 8: the server's message when it sent a readable one; otherwise the short fallback
 * for an answer without one, and the 'Please try again' fallback when no answer arrived at all.
 */
export function notifyInitFailure(toast: InitFailure, error: unknown): void {
  const description = error instanceof ApiError ? (error.serverMessage ?? toast.fallback) : toast.networkFallback;
  notify({ tone: 'error', title: toast.title, description });
}

export function notifyMissingInformation(): void {
  notify({ tone: 'error', ...copy.toasts.missingInformation });
}

export function notifySubscriptionFailure(error: unknown): void {
  const description =
    error instanceof ApiError ? (error.serverMessage ?? copy.toasts.subscriptionError.fallback) : copy.toasts.subscriptionError.fallback;
  notify({ tone: 'error', title: copy.toasts.subscriptionError.title, description });
}

export function notifyProviderError(kind: 'setup' | 'payment', message: string | null): void {
  const toast = kind === 'setup' ? copy.toasts.setupConfirmFailed : copy.toasts.paymentFailed;
  notify({ tone: 'error', title: toast.title, description: message ?? copy.toasts.paymentFailed.fallback });
}

export function notifyPaymentIncomplete(): void {
  notify({ tone: 'error', ...copy.toasts.paymentIncomplete });
}

export function notifyCheckoutError(error: unknown): void {
  const message = error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : null;
  notify({ tone: 'error', title: copy.toasts.otherError.title, description: message || copy.toasts.otherError.fallback });
}
