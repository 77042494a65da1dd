import type { SandboxClockRequest, SandboxClockResponse } from '@contracts/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';

/**
 * Moves the sandbox's clock. Under production the API answers only an admin session with its CSRF
 * token (anyone else gets 404), which adminRequest sends.
 */
export function useAdvanceSandboxClock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SandboxClockRequest) => adminRequest<SandboxClockResponse>(queryClient, 'POST', '/api/sandbox/clock', request),
  });
}
