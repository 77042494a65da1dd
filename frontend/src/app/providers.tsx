import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastHost } from '@/components/toast/toast-host';
import { ConsentBannerHost } from '@/features/consent/components/consent-host';
import { analyticsEnabled } from '@/lib/analytics';
import { createQueryClient } from '@/lib/query-client';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {analyticsEnabled ? <ConsentBannerHost /> : null}
      {children}
      <ToastHost />
    </QueryClientProvider>
  );
}
