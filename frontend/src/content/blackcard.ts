import { OFFERS } from '@contracts/plans';
import { brand } from './brand';
import { formatUsd } from './money';
import { pages } from './pages';

/** Prices of the ascension path that are not sold in this funnel (spec section 9). */
export const LEVEL_THREE_PRICE = 7500;
export const LEVEL_FOUR_PRICE = 25000;

const levelOnePrice = formatUsd(OFFERS.default.amount);

export interface TierCard {
  level: string;
  title: string;
  label: string;
  price: string | null;
  note: string;
}

/** All copy of /blackcard (spec sections 1, 2 and 9), in page order. */
export const blackcard = {
  verifying: 'Verifying access...',
  hero: {
    eyebrow: 'PRIVATE ACCESS · INVITATION ONLY',
    heading: pages.blackcard.heading,
    body: 'A movement of 11 million people getting unstuck in money, love, health, career and purpose starts with one person deciding to play. Someone chose you.',
    cta: 'Begin Your Ascent — Start Your First 30-Day Game',
  },
  levelOne: {
    heading: 'Level 1: The Gateway',
    body: `Every ascent begins with the 30-Day Game. For ${levelOnePrice} you choose one domain of your life, set one clear intention, and take one aligned action every day for 30 days, with the ${brand.methodName}™, the app and the community behind you.`,
    points: [
      'One domain, one intention, 30 days',
      'Daily aligned action, tracked in the app',
      'Weekly live coaching and the community',
      `${levelOnePrice} to begin, cancel anytime`,
    ],
  },
  mechanism: {
    heading: 'The Mechanism',
    intro: 'Four moves. Played daily, they change what you think is possible.',
    domainsLabel: 'Domains',
    steps: [
      {
        title: 'Choose Your Domain',
        body: 'Pick the one area where getting unstuck changes everything.',
        domains: ['Money', 'Love', 'Health', 'Career', 'Peace'],
      },
      { title: 'Set Your Intention', body: 'Write it in the present tense, and make it measurable.', domains: [] },
      { title: 'Play the Game', body: 'Take one aligned action a day. Every day counts.', domains: [] },
      { title: 'Ascend', body: 'Finish the game, claim your result, and step up to the next level.', domains: [] },
    ],
  },
  path: {
    heading: 'The Path of Ascension',
    intro: 'Each level is earned by playing the one before it.',
    tiers: [
      { level: 'Level 1', title: 'The 30-Day Game', label: 'Player', price: levelOnePrice, note: 'Where every ascent begins' },
      {
        level: 'Level 2',
        title: "The Owner's Manual for Human Being",
        label: 'Junior GOAT',
        price: null,
        note: 'Offered to those who complete Level 1',
      },
      {
        level: 'Level 3',
        title: 'Black Card Experience',
        label: 'Path to GOAT',
        price: formatUsd(LEVEL_THREE_PRICE),
        note: 'The membership',
      },
      { level: 'Black Card', title: 'Black Card status', label: 'Full GOAT', price: null, note: 'Earned, not bought' },
      {
        level: 'Elite & Legacy',
        title: 'Elite and Legacy levels',
        label: 'Invite only',
        price: null,
        note: `Invite only; Level 4 (elite) is ${formatUsd(LEVEL_FOUR_PRICE)}`,
      },
    ] satisfies TierCard[],
  },
  testimonials: {
    heading: 'From Those Who Said Yes',
    // Static quotes supplied with the page (spec section 2), not read from the testimonials API.
    quotes: [
      {
        quote: 'I picked money as my domain and played every day. By day 30 I had closed the deal I had been circling for a year.',
        name: 'Marcus T.',
      },
      {
        quote: 'One aligned action a day sounded too simple. It was exactly what I needed to stop waiting and start living.',
        name: 'Alicia R.',
      },
      { quote: 'The invitation felt like someone believed in me before I did. The game made me believe it too.', name: 'Daniel K.' },
    ],
  },
  finalCall: {
    heading: 'Your Ascent Starts Today',
    body: `Start your first 30-Day Game for ${levelOnePrice}.`,
    cta: `YES — I'M READY TO BEGIN MY ASCENT → ${levelOnePrice}`,
  },
  footer: {
    note: 'This page is private. Please do not share your access link.',
    copyright: `© ${new Date().getFullYear()} ${brand.name}`,
  },
};

/** The invite funnel's `source` on checkout and success (spec section 1). */
export const INVITE_SOURCE = 'blackcard';
