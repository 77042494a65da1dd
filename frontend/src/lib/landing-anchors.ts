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
