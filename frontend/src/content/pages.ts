import { fill } from '@contracts/site/fill';
import { pageTitle, title } from '@site/copy/head.json';
import copy from '@site/copy/pages.json';

/**
 * Document title and main heading of every route (spec section 2, route table), from the site
 * folder's copy/pages.json; each title is the page's name in copy/head.json's `pageTitle`, the
 * landing page's that file's `title`. /checkout's heading is in copy/checkout.json: the
 * prerendered /checkout ships that copy, not this table.
 */
type PageCopy = { title: string; heading?: string; body?: string };

export const pages = {
  landing: { title },
  ...(Object.fromEntries(
    Object.entries(copy.pages).map(([name, page]: [string, PageCopy]) => [
      name,
      { ...page, title: fill(pageTitle, { page: page.title, title }) },
    ]),
  ) as typeof copy.pages),
};

export const common = copy.common;
