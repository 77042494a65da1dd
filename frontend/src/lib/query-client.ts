import { QueryClient } from '@tanstack/react-query';

/**
 * Spec section 9: reads never refetch on focus or on an interval, cached data never goes stale,
 * and nothing retries automatically (verification opts into its own retries).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, refetchInterval: false, staleTime: Infinity, retry: false },
      mutations: { retry: false },
    },
  });
}
