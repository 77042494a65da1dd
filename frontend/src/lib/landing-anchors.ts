import { prefersReducedMotion } from './user-preferences';

/** Ids shared by the landing page's calls to action and the lead form they lead to. */
export const CHECKOUT_SECTION_ID = 'checkout';
export const LEAD_EMAIL_FIELD_ID = 'lead-email';

/** Brings the lead form into view and puts the cursor in the e-mail field, the one required input. */
export function scrollToLeadForm(): void {
  const section = document.getElementById(CHECKOUT_SECTION_ID);
  if (!section) return;
  section.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  document.getElementById(LEAD_EMAIL_FIELD_ID)?.focus({ preventScroll: true });
}

/**
 * On the prerendered page the calls to action are static links (components/checkout-cta.tsx
 * without React): one listener gives them the same scroll and focus. A click the SPA already
 * handled, or one that opens a new tab, is left alone.
 */
export function followLeadFormLinks(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest(`a[href="#${CHECKOUT_SECTION_ID}"]`) : null;
    if (!link) return;
    event.preventDefault();
    scrollToLeadForm();
  });
}
