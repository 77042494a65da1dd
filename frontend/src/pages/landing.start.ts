import { islands } from 'virtual:page/landing-island-list';
import { CHECKOUT_SECTION_ID, followLeadFormLinks } from '../lib/landing-anchors';
import { loadSpa, startPage } from '../page-islands';

/**
 * What `/` runs once it has painted: hydrates the islands and nothing else. The router, the query
 * library and every other screen load only when a saved lead moves on to checkout.
 */
startPage(islands, { sliced: false });
followLeadFormLinks();

// Someone filling in the form is likely to continue: fetch the SPA while they type, not after they submit.
document.getElementById(CHECKOUT_SECTION_ID)?.addEventListener('focusin', () => void loadSpa().catch(() => undefined), { once: true });
