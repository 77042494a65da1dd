import { brand } from './brand';
import { landingTerms } from './landing';

/**
 * The copy of the landing page's static sections (spec section 2, "/"), in page order: the server's
 * HTML and the SPA's landing route show it, no island does (their copy is in content/landing.ts).
 */
const { program, method, basePrice, monthlyPrice } = landingTerms;

export interface Card {
  title: string;
  description: string;
}

export interface MethodStep extends Card {
  letter: string;
}

export interface OfferItem extends Card {
  value: number | 'Priceless';
}

export const movement = {
  heading: 'Join the Movement',
  intro: `${program} is a community of people who decided that their next level is not optional.`,
  cards: [
    {
      title: 'Global Community',
      description: 'Members around the world who hold you to your highest standard and celebrate every win with you.',
    },
    {
      title: 'Inevitable Results',
      description: 'When intention, emotion and daily action line up, results stop being a question of if and become a question of when.',
    },
    {
      title: 'Clarity & Power',
      description: 'Know exactly what you want, and act on it with confidence instead of waiting for the perfect moment.',
    },
  ] satisfies Card[],
};

const methodSteps: Card[] = [
  { title: 'Create', description: 'Create intention powerfully' },
  { title: 'Live', description: 'Live it internally' },
  { title: 'Emotionalize', description: 'Emotionalize it constantly' },
  { title: 'Align', description: 'Align radical action' },
  { title: 'Release', description: 'Release it gratefully' },
];

export const methodSection = {
  heading: `The ${method}`,
  intro: 'Five steps that turn what you want into who you are.',
  steps: methodSteps.map((step): MethodStep => ({ ...step, letter: step.title.charAt(0) })),
};

export const benefits = {
  heading: `Imagine Getting ${program} In Every Area of Life`,
  cards: [
    { title: 'Marriage', description: 'Bring presence, patience and passion back into your most important relationship.' },
    { title: 'Finances & Business', description: 'Decide from clarity instead of fear, and build income that reflects your value.' },
    { title: 'Health & Fitness', description: 'Build the energy and the body that let you show up fully for everything else.' },
    { title: 'Purpose', description: "Wake up knowing why you are here and what today's one aligned action is." },
  ] satisfies Card[],
};

export const founder = {
  heading: 'Meet Your Coach',
  name: brand.founderName,
  role: `Founder of ${brand.name}`,
  story: [
    'For years I had the kind of success that looks good from the outside and still felt stuck on the inside: busy, tired and far from the person I knew I could be.',
    `Everything changed when I stopped collecting information and started practising five simple steps every day. Those steps became the ${method}.`,
    `I built ${program} so that you do not have to figure it out alone: the method, the tools and a community that expects your next level as much as you do.`,
  ],
};

const offerItems: OfferItem[] = [
  {
    title: 'The Core Video Course',
    description: `Step-by-step lessons that teach every step of the ${method} and how to apply it to your life.`,
    value: 497,
  },
  {
    title: 'The App + Effortless Daily Action System',
    description: 'Tracks your intention, your emotion and your daily action in one place, in minutes a day.',
    value: 297,
  },
  {
    title: 'AI Companion',
    description: 'Daily accountability that checks in, keeps you honest and helps you choose your next aligned action.',
    value: 397,
  },
  {
    title: '30-Day Challenge',
    description: 'A guided 30-day game that builds the habit and brings your first visible wins.',
    value: 297,
  },
  {
    title: 'Weekly Live Coaching Calls',
    description: 'Live coaching every Saturday at 4 PM ET: bring your questions and get answers for your real situation.',
    value: 297,
  },
  {
    title: 'Community Access',
    description: 'Surround yourself with people who are going where you are going.',
    value: 'Priceless',
  },
  {
    title: 'Archive of Past Trainings',
    description: 'Every past training and call recording, ready whenever you need it.',
    value: 197,
  },
];

export const valueStack = {
  heading: `What You're Getting Inside ${program}`,
  items: offerItems,
  regularValue: 'Regular value',
  totalLabel: 'Total Value',
  yourPrice: `Your Price: ${monthlyPrice}`,
  cta: `Get ${program} Now`,
};

export const whyOnly = {
  heading: `Why Only ${basePrice}?`,
  paragraphs: [
    `Coaching like this usually costs thousands. ${program} costs ${monthlyPrice} on purpose.`,
    'Our goal is to help 11 million people get clear on what they want and live it. That only happens if the price is never the reason someone stays stuck.',
    'No contracts and no long commitments: stay because it works, and cancel anytime if it does not.',
  ],
};

export const guarantee = {
  badge: '12-Month Money-Back Guarantee',
  promise: "I'll give you every penny back.",
  body: `Practise the ${method} for a full 12 months. If you see no transformation in your marriage, your money, your health and your purpose, tell us and you get a full refund.`,
  signature: `— ${brand.founderName}`,
};

export const finalCall = {
  heading: 'Final Call',
  intro: 'You have two choices right now.',
  wrong: {
    title: 'Wrong Choice',
    description: 'Close this page, keep doing what you have always done and hope that next year looks different.',
  },
  right: {
    title: 'Right Choice',
    description: `Join ${program} today for ${monthlyPrice}, start the method immediately and let the 12-month guarantee carry the risk.`,
  },
  cta: `Yes, I Want to Get ${program} Now – ${monthlyPrice}`,
};
