import { fill } from '@contracts/site/fill';
import copy from '@site/copy/blackcard-upsell.json';
import { pages } from './pages';

/** The progress tracker after Level 1 (spec section 9). */
export const LEVEL_ONE_PROGRESS_PERCENT = 25;

export interface LevelRow {
  level: string;
  focus: string;
  investment: string;
  result: string;
  current?: boolean;
}

/** All copy of /blackcard-upsell (spec sections 1, 2 and 9), from the site folder's copy/blackcard-upsell.json. */
export const blackcardUpsell = {
  ...copy,
  progress: { ...copy.progress, label: fill(copy.progress.label, { percent: LEVEL_ONE_PROGRESS_PERCENT }) },
  hero: { ...copy.hero, heading: pages.blackcardUpsell.heading },
  levels: { ...copy.levels, rows: copy.levels.rows satisfies LevelRow[] },
};
