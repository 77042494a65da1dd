import { OFFERS } from '@contracts/plans';
import { LEVEL_THREE_PRICE } from './blackcard';
import { formatUsd } from './money';
import { pages } from './pages';

const levelTwo = OFFERS.levelTwo ?? OFFERS.default;
const levelTwoPrice = formatUsd(levelTwo.amount);

/** The progress tracker after Level 1 (spec section 9). */
export const LEVEL_ONE_PROGRESS_PERCENT = 25;

export interface LevelRow {
  level: string;
  focus: string;
  investment: string;
  result: string;
  current?: boolean;
}

/** All copy of /blackcard-upsell (spec sections 1, 2 and 9). */
export const blackcardUpsell = {
  progress: {
    completed: "You've completed Level 1 – The Gateway",
    label: `${LEVEL_ONE_PROGRESS_PERCENT}% of the way to earning your Black Card`,
  },
  hero: {
    eyebrow: 'WAIT: YOUR NEXT LEVEL IS READY',
    heading: pages.blackcardUpsell.heading,
    body: 'You said yes to the game. Now go all the way: the full course, a live intensive and six weeks of coaching that turn 30 days into a new way of living.',
    cta: `YES — Upgrade Me to Level Two → ${levelTwoPrice}`,
  },
  offer: {
    heading: "What's inside Level Two",
    contents: [
      'Lifetime access to the 103-video course (11 modules, 103 lessons)',
      'A seat in the 3-day live virtual intensive',
      'The 30-day integration challenge',
      'Six weeks of live coaching and accountability',
      'Private elite community access',
      "A path toward earning your official 'Black Card'",
    ],
    cta: 'Yes, I Want Level Two',
  },
  investment: {
    heading: 'Your Investment',
    price: levelTwoPrice,
    terms: 'One-Time Payment (Instant Access)',
    planName: levelTwo.name,
    cta: `Claim Level Two for ${levelTwoPrice}`,
  },
  levels: {
    heading: 'Where Level Two Takes You',
    caption: 'The levels of the path of ascension',
    columns: { level: 'Level', focus: 'Focus', investment: 'Investment', result: 'Result' },
    rows: [
      {
        level: 'Level 1 – The Gateway',
        focus: 'The 30-Day Game: one domain, one daily action',
        investment: formatUsd(OFFERS.default.amount),
        result: 'Player',
      },
      {
        level: 'Level 2 – The Ascension Experience',
        focus: 'The full course, the live intensive and six weeks of coaching',
        investment: levelTwoPrice,
        result: 'Junior GOAT',
        current: true,
      },
      {
        level: 'Level 3 – Black Card Experience',
        focus: 'Membership and mastery',
        investment: formatUsd(LEVEL_THREE_PRICE),
        result: 'Path to GOAT',
      },
      { level: 'Black Card', focus: 'Living the method at the highest level', investment: 'Earned, not bought', result: 'Full GOAT' },
    ] satisfies LevelRow[],
  },
  finalCall: {
    heading: 'This offer is only shown once',
    body: 'Step into Level Two now and keep the momentum of your first 30 days.',
    cta: 'YES — Begin Level Two Now',
  },
  decline: "No thanks, I'll continue with Level One",
  viewContent: { name: 'Level Two: The Ascension Experience', category: 'upsell' },
};
