import { landingIslands } from './app/landing/landing-islands';
import { CHECKOUT_SECTION_ID, followLeadFormLinks } from './lib/landing-anchors';
import { loadSpa, startPage } from './page-islands';

/**
 * What `/` runs once it has painted (src/landing-client.ts loads it): hydrates the islands and
 * nothing else. The router, the query library and every other screen load only when a saved
 * lead moves on to checkout.
 */
startPage(landingIslands, { sliced: false });
followLeadFormLinks();

// Someone filling in the form is likely to continue: fetch the SPA while they type, not after they submit.
document.getElementById(CHECKOUT_SECTION_ID)?.addEventListener('focusin', () => void loadSpa().catch(() => undefined), { once: true });
