import copy from '@site/copy/sandbox-card.json';

/**
 * The sandbox's 'Test mode' card form (checkout, and /account's card update), from the site
 * folder's copy/sandbox-card.json: its own module, so /account's card form does not ship the rest
 * of checkout's copy.
 */
export const sandboxCard = copy;
