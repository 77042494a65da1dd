import type { ReactNode } from 'react';
import { ConsentBannerHost } from '@/features/consent/components/consent-host';
import { analyticsEnabled } from '@/lib/analytics';
import { ScreenProviders } from './screen-providers';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ScreenProviders>
      {analyticsEnabled ? <ConsentBannerHost /> : null}
      {children}
    </ScreenProviders>
  );
}
