/** All copy of /account: the buyer's self-service account, signed in by an e-mailed link. */
export const account = {
  /** Under the heading in every state (signed in or not): the page's first paint, so its largest text. */
  lead: 'Your memberships and payments in one place. See what you paid and when, cancel or resume a membership, and update the card it renews with.',
  signIn: {
    intro: 'Enter the email address you bought with. We will email you a link to sign in, no password needed.',
    emailLabel: 'Email address',
    submit: 'Send me a sign-in link',
    pending: 'Sending…',
    invalidEmail: 'Please enter a valid email address',
    sent: 'If this address has a membership, a sign-in link is on its way. It works once, for 30 minutes.',
    networkError: 'We could not reach the server. Check your connection and try again.',
    errorFallback: 'Something went wrong. Please try again.',
  },
  /** A sign-in link opened: nothing is used up until the visitor presses the button (mail scanners open links too). */
  link: {
    intro: 'Your sign-in link works once. Press the button to open your account.',
    submit: 'Sign in to your account',
    pending: 'Signing you in…',
  },
  loading: 'Loading your account…',
  loadError: 'Your account could not be loaded.',
  retry: 'Try again',
  signOut: 'Sign out',
  empty: 'There are no paid memberships for this address yet.',
  membershipsHeading: 'Your memberships',
  status: 'Status',
  periodEnd: 'Current period ends',
  paymentsHeading: 'Payments',
  paymentNumber: (sequence: number) => `Payment ${sequence}`,
  noPayments: 'No payments recorded yet.',
  cancel: 'Cancel membership',
  resume: 'Resume membership',
  updateCard: 'Update card',
  manageBilling: 'Manage billing',
  working: 'Working…',
  confirmCancel: {
    title: 'Cancel your membership?',
    body: (end: string | null) =>
      end
        ? `Your membership stays active until ${end}, then it ends and you are not charged again.`
        : 'Your membership ends at the end of the current period.',
    confirm: 'Yes, cancel at period end',
    keep: 'Keep my membership',
  },
  canceled: 'Your membership will end at the end of the current period.',
  resumed: 'Your membership will renew as usual.',
  card: {
    heading: 'Update your card',
    save: 'Save card',
    close: 'Close',
    saved: 'Your new card will be used for the next payments.',
  },
};
