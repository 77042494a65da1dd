import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastHost } from '@/components/toast/toast-host';
import { createQueryClient } from '@/lib/query-client';

/** The query cache and the toast area: what the screens of both documents (funnel and admin) run inside. */
export function ScreenProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToastHost />
    </QueryClientProvider>
  );
}
