import { fill } from '@contracts/site/fill';
import copy from '@site/copy/success.json';

/** All copy of /success (spec section 2, "/success"; section 8), from the site folder's copy/success.json. */
export const success = {
  ...copy,
  allSet: { ...copy.allSet, body: (community: string) => fill(copy.allSet.body, { community }) },
  incomplete: { ...copy.incomplete, status: (status: string) => fill(copy.incomplete.status, { status }) },
};
