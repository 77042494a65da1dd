import { OFFERS } from '@contracts/plans';
import { brand } from './brand';

const program = brand.programName;
const monthly = OFFERS.default.displayText;

/** All copy of /success (spec section 2, "/success"; section 8). */
export const success = {
  loading: { heading: 'Verifying Payment...', body: 'Please wait while we confirm your purchase.' },
  allSet: {
    heading: "You're All Set!",
    body: (community: string) => `You're now part of the ${community} community. Check your email for next steps.`,
    vipCommunity: 'VIP',
    programCommunity: program,
    access: 'Access Your Program',
  },
  failed: {
    heading: 'Payment Verification Failed',
    body: "We couldn't verify your payment. Please contact support if you were charged.",
  },
  incomplete: {
    heading: 'Payment Incomplete',
    body: 'Your payment was not completed successfully.',
    status: (status: string) => `Status: ${status}`,
    retry: 'Try Again',
  },
  confirmed: {
    heading: 'Payment Confirmed!',
    body: `You now have access to ${program} for ${monthly}`,
  },
  offer: {
    eyebrow: 'ONE-TIME UPGRADE OFFER',
    heading: 'Go deeper with the 30-Day Intensive',
    /** One short line each: a long paragraph here would outgrow the loading view's line (Largest Contentful Paint). */
    includes: ['A 3-day weekend intensive', 'A 30-day cohort with daily accountability', 'Six weekly live Q&As', '6 months of support'],
    once: 'Offered once, on this page only.',
    decline: `No thanks, I'll stick with my ${monthly} plan`,
  },
  welcome: {
    heading: `Welcome to ${program}!`,
    checkEmail: { title: 'Check Your Email', body: 'Your login credentials are on their way to your inbox.' },
    qa: { title: 'Join the Weekly Q&A', body: 'Live every Saturday at 4 PM ET. Bring your questions.' },
    nextStepsHeading: 'Your next steps',
    steps: {
      course: { title: 'Access Your Course', body: 'Start with Module 1 today.' },
      app: { title: 'Download the App', body: 'Track your intention, emotion and daily action.', link: 'Get the app' },
      community: { title: 'Join the Community', body: 'Introduce yourself and meet the members on the same path.' },
    },
    guarantee: "Remember: you're covered by our 12-month money-back guarantee. If you see no transformation, you get every penny back.",
    register: 'Register Your Account Now',
  },
  newTab: '(opens in a new tab)',
  backToHome: 'Back to Home',
  returnToHome: 'Return to Home',
};
