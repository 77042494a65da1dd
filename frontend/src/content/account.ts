import { fill } from '@contracts/site/fill';
import copy from '@site/copy/account.json';

/**
 * All copy of /account, the buyer's self-service account signed in by an e-mailed link, from the
 * site folder's copy/account.json. Its `lead` shows under the heading in every state: the page's
 * first paint, so its largest text. A sign-in link opened uses nothing up until the visitor
 * presses the button (mail scanners open links too).
 */
export const account = {
  ...copy,
  paymentNumber: (sequence: number) => fill(copy.paymentNumber, { sequence }),
  confirmCancel: {
    ...copy.confirmCancel,
    body: (end: string | null) => (end ? fill(copy.confirmCancel.body, { end }) : copy.confirmCancel.bodyNoEnd),
  },
};
