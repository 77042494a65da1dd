import type { QueryClient } from '@tanstack/react-query';
import { notify } from '@/components/toast/notify';
import { testimonialManager } from '@/content/admin';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';

const { toasts } = testimonialManager;

/**
 * A failed admin change as a destructive toast with the server's reason. A 401 (the session
 * ended) says so instead, and forgetting the session sends the admin to sign in again.
 */
export function notifyAdminFailure(
  queryClient: QueryClient,
  error: unknown,
  title: string,
  fallback: string = toasts.failedFallback,
): void {
  if (forgetSessionOn401(queryClient, error)) {
    notify({ tone: 'destructive', title: toasts.sessionEnded, description: toasts.sessionEndedDescription });
    return;
  }
  notify({ tone: 'destructive', title, description: (error instanceof ApiError && error.serverMessage) || fallback });
}
