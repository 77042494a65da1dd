import { OFFERS, PLANS, PRODUCT_IDS, productOf } from '@contracts/plans';
import { site } from '@contracts/site/site';

// Operator screens: their copy stays here; the brand, plan names and currency come from the site folder.
const upgradePlans = [...OFFERS.upgrade, ...(OFFERS.levelTwo ? [OFFERS.levelTwo] : [])].map((plan) => plan.name);
const defaultProduct = productOf(OFFERS.default.id);

/** Copy of the admin area: sign-in, the admin landing and the testimonial manager (spec sections 2, 5 and 8). */
export const adminLogin = {
  emailLabel: 'Email',
  passwordLabel: 'Password',
  submit: 'Sign in',
  pending: 'Signing in…',
  emailRequired: 'Please enter your email address',
  passwordRequired: 'Please enter your password',
  failedFallback: 'Sign-in failed. Please try again.',
};

export const adminShell = {
  navLabel: 'Admin',
  home: 'Admin',
  signedInAs: 'Signed in as',
  signOut: 'Sign out',
  signingOut: 'Signing out…',
  sessionLoadFailed: 'Your admin session could not be checked. Check your connection and reload the page.',
  reload: 'Reload page',
};

export const adminHome = {
  intro: 'Manage what the funnel shows and how its background work is doing.',
  links: [
    { key: 'testimonials', label: 'Testimonials', description: 'Add, edit, feature and order the testimonials on the landing page.' },
    { key: 'orders', label: 'Orders and refunds', description: 'Find an order, see its payments, refund a payment in full or in part.' },
    { key: 'coupons', label: 'Coupons', description: 'Create coupon codes for checkout, see their redemptions, deactivate them.' },
    {
      key: 'revenue',
      label: 'Revenue',
      description: 'MRR and its movements, churn, failed-payment recovery, refunds, lifetime value and cohort retention.',
    },
    { key: 'queues', label: 'Queues', description: 'Background jobs: counts, failures, retries.' },
    {
      key: 'sandbox-clock',
      label: 'Sandbox clock',
      description: "Move the payment sandbox's time forward to see renewals, retries and cancellations happen.",
    },
  ],
};

export const testimonialManager = {
  form: {
    heading: 'Add New Testimonial',
    editHeading: 'Edit Testimonial',
    nameLabel: 'Name',
    titleLabel: 'Title/Role',
    contentLabel: 'Testimonial Content',
    videoUrlLabel: 'Video URL (Optional)',
    imageUrlLabel: 'Image URL (Optional)',
    ratingLabel: 'Rating',
    ratingOption: (stars: number) => `${stars} star${stars === 1 ? '' : 's'}`,
    featuredLabel: 'Featured (show on landing page)',
    submit: 'Add Testimonial',
    submitting: 'Adding…',
    save: 'Save changes',
    saving: 'Saving…',
    cancel: 'Cancel',
  },
  validation: {
    nameRequired: 'Name is required',
    titleRequired: 'Title is required',
    contentRequired: 'Content is required',
    urlInvalid: 'Enter a full http(s) URL, such as https://example.com/video',
  },
  list: {
    heading: 'Existing Testimonials',
    empty: 'No testimonials yet',
    loading: 'Loading testimonials…',
    loadFailed: 'The testimonials could not be loaded.',
    retry: 'Try again',
    featuredMarker: 'Featured',
    videoMarker: 'Has video',
    ratingText: (stars: number) => `${stars} of 5 stars`,
    edit: 'Edit',
    feature: 'Feature',
    unfeature: 'Unfeature',
    moveUp: 'Move up',
    moveDown: 'Move down',
    delete: 'Delete',
    confirmDelete: (name: string) => `Delete the testimonial from ${name}? This cannot be undone.`,
    confirmDeleteButton: 'Yes, delete',
    deleting: 'Deleting…',
  },
  toasts: {
    created: 'Testimonial created successfully',
    createFailed: 'Error creating testimonial',
    updated: 'Testimonial updated',
    updateFailed: 'Error updating testimonial',
    deleted: 'Testimonial deleted',
    deleteFailed: 'Error deleting testimonial',
    deleteFailedFallback: 'The testimonial was not deleted. Please try again.',
    failedFallback: 'Please try again.',
    sessionEnded: 'Your session has ended',
    sessionEndedDescription: 'Please sign in again; nothing was saved.',
  },
};

/** The funnel dashboard on /admin: figures, lists, a person's data, the jobs that gave up and the audit log. */
export const adminDashboard = {
  funnel: {
    heading: 'Funnel',
    rangeLegend: 'Date range (UTC days)',
    fromLabel: 'From',
    toLabel: 'To',
    apply: 'Show',
    loading: 'Loading the funnel…',
    loadFailed: 'The funnel figures could not be loaded.',
    retry: 'Try again',
    stages: {
      visitors: 'Visitors',
      leads: 'Leads',
      checkouts: 'Checkouts started',
      purchases: 'Purchases',
      revenue: `Revenue (${site.currency})`,
    },
    definitions: {
      visitors: 'Browsers (anonymous ids) that viewed a public page in the range.',
      leads: 'E-mail addresses first submitted in the range.',
      checkouts: 'Checkout starts in the range (each start counts).',
      purchases: 'Live orders paid in the range; revenue is the sum of their amounts. Test orders are counted apart.',
    },
    testOrders: (count: string, amount: string) =>
      `Test orders (sandbox or Stripe test mode): ${count} paid, ${amount}, not counted in purchases or revenue.`,
    conversion: (rate: string) => `${rate} of the previous step`,
    upgradeHeading: 'Upgrade take rate',
    upgradeDefinition:
      `Of the people (distinct e-mails) whose ${OFFERS.default.name} order was paid in the range, the share who also paid for an upgrade plan ` +
      `(${upgradePlans.slice(0, -1).join(', ')} or ${upgradePlans.at(-1)}) at any time before the end of the range.`,
    upgradeSummary: (upgraded: number, buyers: number) => `${upgraded} of ${buyers} standard buyers`,
    byPlanHeading: 'By plan',
    byReferralHeading: 'By referral',
    noReferral: '(none)',
    planColumn: 'Plan',
    /** The add-on's (order bump's) take rate: paid orders with it, of the paid orders whose checkout offered it. */
    bumpColumn: 'Add-on taken',
    bumpRate: (taken: string, offered: string, rate: string) => `${rate} (${taken} of ${offered})`,
    bumpNotOffered: '—',
    referralColumn: 'Referral',
    invitationsHeading: 'Invitations',
    invitationsDefinition:
      'Invitations requested in the range; verified: opened with a valid access link before the end of the range; purchased: with a paid order through their invite link, or a Black Card order from the same e-mail.',
    invitationStages: { invited: 'Invited', verified: 'Verified', purchased: 'Purchased' },
    remindersHeading: 'Checkout reminders',
    remindersDefinition:
      'Reminder e-mails sent in the range to leads with no paid order an hour (ABANDONED_CHECKOUT_DELAY_S) after signing up; paid within 7 days: orders (test orders included) those addresses paid within 7 days after their reminder.',
    reminderStages: { sent: 'Sent', paidWithin7Days: 'Paid within 7 days' },
    empty: 'Nothing recorded in this range.',
  },
  records: {
    leadsHeading: 'Recent leads',
    ordersHeading: 'Recent orders',
    membersHeading: 'Members',
    searchLabel: 'Search by e-mail',
    search: 'Search',
    exportCsv: 'Export CSV',
    exporting: 'Exporting…',
    exportFailed: 'The export failed',
    loading: 'Loading…',
    loadFailed: 'The list could not be loaded.',
    retry: 'Try again',
    emptyLeads: 'No leads found.',
    emptyOrders: 'No orders found.',
    emptyMembers: 'No members found.',
    previous: 'Previous',
    next: 'Next',
    pageOf: (page: number, pages: number, total: number) => `Page ${page} of ${pages} (${total} total)`,
    columns: {
      email: 'E-mail',
      name: 'Name',
      referral: 'Referral',
      submissions: 'Submissions',
      lastSubmitted: 'Last submitted',
      plan: 'Plan',
      amount: 'Amount',
      status: 'Status',
      created: 'Created',
      paid: 'Paid',
      product: 'Access to',
      granted: 'Access since',
      ended: 'Ended',
    },
    /** A membership's status as the members list shows it. */
    memberStatus: { active: 'Active', canceling: 'Canceling', past_due: 'Past due', ended: 'Ended' } as Record<string, string>,
    /** What each product gives access to. */
    products: Object.fromEntries(
      PRODUCT_IDS.map((product) => [
        product,
        product === defaultProduct
          ? `${site.brand.programName} programme`
          : (PLANS.find((plan) => productOf(plan.id) === product)?.name ?? product),
      ]),
    ) as Record<string, string>,
  },
  person: {
    heading: "A person's data",
    intro: 'Find everything held about one e-mail address, download it as JSON, or erase it.',
    emailLabel: 'E-mail address',
    find: 'Find',
    finding: 'Searching…',
    findFailed: 'The search failed.',
    nothingHeld: 'Nothing is held about this e-mail address.',
    summary: {
      lead: 'Lead',
      submissions: 'Lead submissions',
      invitation: 'Invitation',
      invitationSubmissions: 'Invitation submissions',
      tokens: 'Access tokens',
      orders: 'Orders',
      sideEffects: 'Side effects',
      unsubscribed: 'Unsubscribed from marketing e-mail',
    },
    yes: 'Yes',
    no: 'No',
    exportJson: 'Download JSON',
    exporting: 'Downloading…',
    exportFailed: 'The download failed',
    erase: 'Erase this person',
    confirmErase:
      'Erase every personal detail held about this address? Names, e-mail, phone and inviter are removed; orders keep their amounts and status anonymously. The customer at the payment provider is deleted too, which ends any subscription still running. This cannot be undone.',
    confirmEraseButton: 'Yes, erase',
    cancel: 'Cancel',
    erasing: 'Erasing…',
    erased: 'Personal data erased',
    eraseFailed: 'The data was not erased',
    failedFallback: 'Please try again.',
    sessionEnded: 'Your session has ended',
    sessionEndedDescription: 'Please sign in again.',
  },
  exhaustedJobs: {
    heading: 'Jobs that gave up',
    intro:
      'Background work (affiliate calls, e-mails, payment updates) that kept failing until its retry window ran out. Once the service it needs is back, retry it: it runs again under the same id, so nothing it already did happens twice.',
    loading: 'Loading…',
    loadFailed: 'The jobs that gave up could not be loaded.',
    retry: 'Try again',
    empty: 'No job has given up.',
    shownOf: (shown: number, total: number) => `The ${shown} most recent of ${total}.`,
    columns: { job: 'Job', reason: 'Reason', owed: 'Owed', gaveUp: 'Gave up', action: 'Action' },
    noReason: '(none recorded)',
    retryJob: 'Retry',
    retrying: 'Retrying…',
    retryJobLabel: (job: string, id: string) => `Retry ${job} ${id}`,
    retried: 'The job is queued again',
    retryFailed: 'The job was not retried',
    failedFallback: 'Please try again.',
    sessionEnded: 'Your session has ended',
    sessionEndedDescription: 'Please sign in again.',
  },
  audit: {
    heading: 'Audit log',
    intro: 'Every admin action, newest first.',
    loading: 'Loading the audit log…',
    loadFailed: 'The audit log could not be loaded.',
    retry: 'Try again',
    empty: 'No admin actions yet.',
    columns: { at: 'When', admin: 'Admin', action: 'Action', target: 'Target', clientIp: 'Client IP' },
    unknownAdmin: '(unknown)',
  },
};
