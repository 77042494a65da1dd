import { site } from '@contracts/site/site';

/** Brand settings, from the site folder's site.json. */
export const brand = site.brand;
