import { OFFERS } from '@contracts/plans';
import { brand } from './brand';

/**
 * The copy of the landing page's islands (spec section 2, "/"): hero video, sales letter video,
 * testimonials, FAQ and lead form; the rest of the page's copy is in content/landing-sections.ts, so
 * the islands' code does not ship the static sections' text. Prices come from the plan catalogue.
 */
const program = brand.programName;
const method = `${brand.methodName}™`;
const basePrice = `$${OFFERS.default.amount}`;
const monthlyPrice = OFFERS.default.displayText;

/** The names and prices the landing page's copy is written with. */
export const landingTerms = { program, method, basePrice, monthlyPrice };

export interface FaqItem {
  question: string;
  answer: string;
}

export const hero = {
  logoLabel: `${brand.name} home page`,
  headline: 'Your next level of greatness starts here.',
  cta: `Join the ${program} Movement — ${basePrice}`,
  reassurance: 'Your transformation starts immediately. No contracts. Cancel anytime.',
  socialProof: `Join 10,000+ in the ${program} movement`,
  videoTitle: `${program} background video`,
  pauseVideo: 'Pause background video',
  playVideo: 'Play background video',
};

export const salesLetter = {
  heading: 'Watch This Important Message',
  intro: `Before you decide, hear from ${brand.founderName} what ${program} is, who it is for and what changes when you join.`,
  playLabel: 'Play the video: Watch This Important Message',
  duration: 'Video Duration: ~5 minutes',
};

export const testimonialsSection = {
  heading: 'Real Transformations, Real People',
  intro: `What members say after putting the ${method} to work.`,
  footer: 'Join 12,847+ members',
  watchLabel: (name: string) => `Watch ${name}'s story (opens in a new tab)`,
  ratingLabel: (rating: number, max: number) => `${rating} out of ${max} stars`,
};

export const faq = {
  heading: 'Frequently Asked Questions',
  items: [
    {
      question: `What is the ${method}?`,
      answer: `A five-step method (Create, Live, Emotionalize, Align, Release) for turning a clear intention into daily action. ${program} teaches it step by step and gives you the tools and accountability to live it.`,
    },
    {
      question: `How is ${program} different from other programs?`,
      answer:
        'Most programmes stop at information. Here the method comes with an app that tracks intention, emotion and daily action, an AI companion for daily accountability, and weekly live coaching, so you apply what you learn.',
    },
    {
      question: 'How much time does it take?',
      answer:
        'About 15-20 minutes daily: set your intention, check in with the app and take one aligned action. The weekly live call is optional and recorded for the archive.',
    },
    {
      question: 'Is this for beginners or advanced people?',
      answer:
        'Both. Beginners get a clear path from the first lesson; people who have done years of personal development get the structure and accountability to finally make it stick.',
    },
    {
      question: "I've tried everything. Why would this work?",
      answer:
        'Most approaches rely on motivation, which fades. The method works on intention, emotion and action together, every day, with people and tools that keep you on track when motivation dips. And the 12-month guarantee carries the risk.',
    },
    {
      question: 'How does payment work?',
      answer: `Membership is ${monthlyPrice}, charged to your card each month through ${brand.paymentProvider}, our secure payment provider. There is no contract: cancel anytime, and the 12-month money-back guarantee applies.`,
    },
  ] satisfies FaqItem[],
};

export const leadCapture = {
  heading: `Ready to Get ${program}?`,
  intro: `Start your transformation today for only ${monthlyPrice}`,
  nameLabel: 'Name (Optional)',
  emailLabel: 'Email Address *',
  phoneLabel: 'Phone Number (Optional)',
  invalidEmail: 'Please enter a valid email address',
  summary: {
    title: `${program} Program Access`,
    price: monthlyPrice,
    cancel: 'Cancel anytime',
    includedHeading: 'Included in your membership',
    inclusions: ['Core Course', 'App Access', '30-Day Challenge', 'Weekly Coaching', 'Community', 'Archive'],
  },
  submit: 'Continue to Payment',
  pending: 'Processing...',
  footnote: `Secure checkout powered by ${brand.paymentProvider} • 12-month money-back guarantee`,
  errorTitle: 'Error',
  errorFallback: 'Failed to save information',
};
