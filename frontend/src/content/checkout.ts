import { OFFERS, type Plan } from '@contracts/plans';
import { formatUsd, formatUsdCents } from './money';

/** Level Two's contents (spec section 1), listed in the order summary of plan blackcard-vip. */
const vipUnlocks = [
  'Lifetime access to the 103-video course (11 modules, 103 lessons)',
  'A seat in the 3-day live virtual intensive',
  'The 30-day integration challenge',
  'Six weeks of live coaching and accountability',
  'Private elite community access',
  "A path toward earning your official 'Black Card'",
];

const standardUnlocks = [
  'All program content',
  'Weekly Q&A calls every Saturday at 4 PM ET',
  'Private community access',
  '12-month money-back guarantee',
];

/** All copy of /checkout (spec sections 2, 5 and 8). Amounts come from the plan catalogue. */
export const checkout = {
  backToHome: 'Back to home',
  heading: 'Complete Your Order',
  paymentDetails: 'Payment Details',
  initializing: 'Initializing secure payment...',
  retryInitialize: 'Try again',
  processing: 'Processing Payment...',
  /** With a coupon, `chargedCents` is the amount the server charges today. */
  payLabel: (plan: Plan, chargedCents?: number): string =>
    OFFERS.firstInstalmentButton(plan)
      ? `Payment 1 of ${plan.instalments ?? 1} - ${formatUsd(plan.amount)}`
      : `Pay ${chargedCents === undefined ? formatUsd(plan.amount) : formatUsdCents(chargedCents)}`,
  notes: ['Secure 256-bit SSL encrypted payment', 'We do not store credit card details'],
  /** The saved card of this browser's payment a moment ago, offered for another plan. */
  oneClick: {
    pay: (amount: number, last4: string): string => `Pay ${formatUsd(amount)} with card ending ${last4}`,
    otherCard: 'Use a different card',
    checking: 'Checking for your saved card...',
  },
  /** Shown where a card is entered: it allows the card to be used again for purchases the buyer confirms. */
  mandate:
    'By paying, you allow us to charge this card for this purchase and to keep it with our payment provider, so that purchases you confirm on this site in the next few minutes can use it without typing it again.',
  summary: {
    heading: 'Order Summary',
    plan: 'Plan',
    price: 'Price',
    total: 'Total due today',
    unlocksHeading: "What you'll unlock",
    unlocks: (plan: Plan): string[] => (plan.id === OFFERS.levelTwo?.id ? vipUnlocks : standardUnlocks),
  },
  /** The coupon field of the Order Summary (issue 18); messages about a code come from the server. */
  coupon: {
    toggle: 'Have a coupon?',
    label: 'Coupon code',
    apply: 'Apply',
    applying: 'Checking…',
    remove: 'Remove',
    discount: (code: string): string => `Discount (${code})`,
    months: (months: number | null): string | null =>
      months === null ? null : months === 1 ? 'Discount applies to the first month' : `Discount applies to the first ${months} months`,
    unavailable: 'The coupon could not be checked. Please try again.',
  },
  secureCheckout: '100% Secure Checkout',
  customerEmail: 'Customer Email:',
  customerName: 'Customer Name:',
  notProvided: 'Not provided',
  missingWarning: 'Missing information? Please go back to the home page and fill in the form.',
  completingAuthentication: 'Completing your secure authentication...',
  setupErrorScreen: {
    heading: 'Payment Setup Error',
    body: 'Unable to load payment system. Please try again.',
    reload: 'Reload Page',
  },
  /** Spec section 8: every toast of checkout, title and fallback description. */
  toasts: {
    missingInformation: { title: 'Missing Information', description: 'Email and name are required. Please go back and fill in the form.' },
    setupError: {
      title: 'Setup Error',
      fallback: 'Failed to initialize payment',
      networkFallback: 'Failed to initialize payment. Please try again.',
    },
    paymentIntentError: {
      title: 'Payment Error',
      fallback: 'Failed to initialize payment',
      networkFallback: 'Failed to initialize payment. Please try again.',
    },
    setupConfirmFailed: {
      title: 'Payment Setup Failed',
      authenticationFailed: 'We were unable to authenticate your payment method. Please choose a different payment method and try again.',
    },
    subscriptionError: { title: 'Payment Error', fallback: 'Failed to confirm subscription' },
    paymentFailed: { title: 'Payment Failed', fallback: 'Your payment could not be processed. Please try again.' },
    paymentIncomplete: { title: 'Payment Incomplete', description: 'Your payment was not completed. Please try again.' },
    otherError: { title: 'Payment Error', fallback: 'An error occurred. Please try again.' },
  },
};
