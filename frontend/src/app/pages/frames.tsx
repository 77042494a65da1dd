import type { ComponentType } from 'react';
import { pages } from '@/content/pages';
import { CheckoutFrame } from '@/features/checkout/components/checkout-frame';

export interface FramePage {
  title: string;
  /** What the document paints before the SPA's screen replaces it (lib/page-frame.ts). */
  Frame: ComponentType;
}

/**
 * Build-time only (src/entry-server.tsx): the frame pages, whose screens depend on the visitor
 * (their plan), so only their frame is prerendered.
 */
export const framePages: Record<string, FramePage> = {
  checkout: { title: pages.checkout.title, Frame: CheckoutFrame },
};
