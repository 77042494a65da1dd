import { BLACKCARD_GRANT } from '../../../backend/src/contracts/blackcard-grant';
import { ROUTES } from '../../../backend/src/contracts/routes';
import { definePage } from '../../vite/pages.plugin';

/** The stylesheets of every page but `/`: the base and the page heading, before the page's own. */
const PAGE_CSS = ['styles/base.css', 'components/page-heading.css'];

/**
 * Every page a buyer sees, prerendered: the build writes each one's document (the shared head of
 * index.html, its markup, its CSS inlined), its entry and its islands' module from its entry here
 * (vite/pages.plugin.ts) and lists its route for the server (`BUILT_PAGES_FILE`), which answers it
 * with that document (`prerenderedDocument`): a route is written here alone.
 * The screens that depend on the visitor (/checkout, /success, /account) are prerendered as they
 * stand before the visitor is known. The pages the site leaves out (site.json `pages`) are not
 * built. Build-time only: no page's code imports this list.
 */
export const PAGES = [
  definePage({
    route: ROUTES.landing,
    title: 'landing',
    // The islands' own styles too, so they arrive with the page rather than with the island code.
    css: [
      'styles/base.css',
      'features/landing/landing.css',
      'features/lead-capture/components/lead-capture.css',
      'features/testimonials/components/testimonials.css',
    ],
    // The prerender renders each and the browser hydrates each, one per task in this order: the lead
    // form last, so its enabled submit button means the whole page is interactive (the browser tests
    // wait for exactly that). An island placed on the page but missing here fails the build. The
    // consent settings' container exists only in builds with analytics.
    islands: [
      'features/landing/components/hero-backdrop#heroVideoIsland',
      'features/landing/components/sales-letter-video#salesLetterVideoIsland',
      'features/testimonials/components/testimonials-section#testimonialsIsland',
      'features/landing/components/faq-accordion#faqIsland',
      'features/consent/components/consent-host#consentSettingsIsland',
      'components/toast/toast-host#toastIsland',
      'features/lead-capture/components/lead-form#leadFormIsland',
    ],
    document: 'app/landing/landing-document#LandingDocument',
    load: 'pages/landing.load',
    start: 'pages/landing.start',
    mustContain: 'id="checkout"',
  }),
  // The gate (form, confirmation and overlay) and the toast area its answers use.
  definePage({
    route: ROUTES.invitation,
    title: 'invitation',
    css: [...PAGE_CSS, 'features/invitation/invitation.css'],
    islands: ['features/invitation/components/invitation-page#invitationIsland', 'components/toast/toast-host#toastIsland'],
  }),
  // The access check and, once granted, the content (one island). Its built HTML holds only the
  // check's state; the server sends the granted document to a checked token (@contracts/blackcard-grant).
  definePage({
    route: ROUTES.blackcard,
    title: 'blackcard',
    css: [...PAGE_CSS, 'features/blackcard/blackcard.css'],
    islands: ['features/blackcard/components/blackcard-page#blackcardIsland'],
    load: 'pages/blackcard.load',
    variant: {
      name: 'blackcard-granted',
      output: BLACKCARD_GRANT.document,
      islands: ['features/blackcard/components/blackcard-page#grantedBlackcardIsland'],
      dataBlock: { id: BLACKCARD_GRANT.elementId, json: BLACKCARD_GRANT.json },
      mustContain: `>${BLACKCARD_GRANT.json}</script>`,
    },
  }),
  // The whole page is one island: every call to action depends on the visitor's query.
  definePage({
    route: ROUTES.upsell,
    title: 'upsell',
    css: [...PAGE_CSS, 'features/upsell/upsell.css'],
    islands: ['features/upsell/components/upsell-page#upsellIsland'],
  }),
  definePage({
    route: ROUTES.blackcardUpsell,
    title: 'blackcardUpsell',
    css: [...PAGE_CSS, 'features/blackcard-upsell/blackcard-upsell.css'],
    islands: ['features/blackcard-upsell/components/blackcard-upsell-page#blackcardUpsellIsland'],
  }),
  // The whole screen is one island (everything on it depends on the visitor's query), then the toast
  // area, whose code loads on the first toast.
  definePage({
    route: ROUTES.checkout,
    title: 'checkout',
    css: [...PAGE_CSS, 'features/checkout/checkout.css'],
    islands: ['features/checkout/components/checkout-island#checkoutIsland', 'components/toast/toast-host#toastIsland'],
    load: 'pages/checkout.load',
  }),
  // The HTML is the loading view; the island verifies the payment and shows the view the result calls for.
  definePage({
    route: ROUTES.success,
    title: 'success',
    css: [...PAGE_CSS, 'features/success/success.css'],
    islands: ['features/success/components/success-page#successIsland'],
    start: 'pages/success.start',
  }),
  // The HTML is the heading, its lead and the loading line; the island signs the visitor in (a link's
  // token) or asks for their account.
  definePage({
    route: ROUTES.account,
    title: 'account',
    css: [...PAGE_CSS, 'features/account/account.css'],
    islands: ['features/account/components/account-page#accountIsland'],
  }),
];
