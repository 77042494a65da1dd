import type { ComponentType } from 'react';
import { pages } from '@/content/pages';
import { AccountFrame } from '@/features/account/components/account-frame';
import { LoadingView } from '@/features/success/components/status-views';

export interface FramePage {
  title: string;
  /** What the document paints before the SPA's screen replaces it (lib/page-frame.ts). */
  Frame: ComponentType;
}

/**
 * Build-time only (src/entry-server.tsx): the frame pages, whose screens depend on the visitor
 * (their plan, their payment, their session), so only their frame is prerendered.
 */
export const framePages: Record<string, FramePage> = {
  success: { title: pages.success.title, Frame: LoadingView },
  account: { title: pages.account.title, Frame: AccountFrame },
};
