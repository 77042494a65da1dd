import { defaultDocumentTitle, pageTitle } from './brand';

/** Document title and main heading of every route (spec section 2, route table). */
export const pages = {
  landing: { title: defaultDocumentTitle },
  invitation: { title: pageTitle('Your Invitation'), heading: 'Your Invitation Awaits.' },
  blackcard: { title: pageTitle('You Have Been Invited'), heading: "YOU'VE BEEN INVITED TO THE 11 MILLION" },
  upsell: { title: pageTitle('The 30-Day Experience'), heading: 'The 30-Day Experience' },
  blackcardUpsell: { title: pageTitle('Level Two'), heading: 'Level Two: The Ascension Experience' },
  // Its heading is in content/checkout.ts: the prerendered /checkout ships that copy, not this table.
  checkout: { title: pageTitle('Checkout') },
  success: { title: pageTitle('Your Order'), heading: 'Your Order' },
  account: { title: pageTitle('Your Account'), heading: 'Your Account' },
  admin: { title: pageTitle('Admin'), heading: 'Admin' },
  adminLogin: { title: pageTitle('Admin Sign In'), heading: 'Admin sign in' },
  adminTestimonials: { title: pageTitle('Manage Testimonials'), heading: 'Manage Testimonials' },
  adminOrders: { title: pageTitle('Orders and Refunds'), heading: 'Orders and refunds' },
  adminCoupons: { title: pageTitle('Coupons'), heading: 'Coupons' },
  adminSandboxClock: { title: pageTitle('Sandbox Clock'), heading: 'Sandbox clock' },
  notFound: {
    title: pageTitle('Page Not Found'),
    heading: '404 Page Not Found',
    body: 'Did you forget to add the page to the router?',
  },
} satisfies Record<string, { title: string; heading?: string; body?: string }>;

export const common = {
  backToHome: 'Back to home',
  routeLoading: 'Loading…',
  routeError: {
    heading: 'This page could not be loaded',
    body: 'Check your connection and try again.',
    reload: 'Reload page',
  },
  dismissNotification: 'Dismiss notification',
  notificationsRegion: 'Notifications (F8)',
};
