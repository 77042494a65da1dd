import { title } from '@site/copy/head.json';
import copy from '@site/copy/pages.json';

/**
 * Document title and main heading of every route (spec section 2, route table), from the site
 * folder's copy/pages.json; the landing page's title is copy/head.json's, every document's default.
 * /checkout's heading is in copy/checkout.json: the prerendered /checkout ships that copy, not this
 * table.
 */
export const pages = { landing: { title }, ...copy.pages };

export const common = copy.common;
