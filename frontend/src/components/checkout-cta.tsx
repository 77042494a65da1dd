import type { ReactNode } from 'react';
import { CHECKOUT_SECTION_ID, scrollToLeadForm } from '@/lib/landing-anchors';

/**
 * A call to action that leads to the lead form. It is a real in-page link, so it works before
 * JavaScript runs. Inside the SPA this handler scrolls smoothly and focuses the form; on the
 * prerendered page, where the CTAs stay static HTML, followLeadFormLinks does the same.
 */
export function CheckoutCta({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <a
      href={`#${CHECKOUT_SECTION_ID}`}
      className="button button--cta"
      data-testid={testId}
      onClick={(event) => {
        event.preventDefault();
        scrollToLeadForm();
      }}
    >
      {children}
    </a>
  );
}
