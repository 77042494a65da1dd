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
  paused: (date: string) => fill(copy.paused, { date }),
  pausedNotice: (date: string) => fill(copy.pausedNotice, { date }),
  discountedNotice: (discount: string) => fill(copy.discountedNotice, { discount }),
  cancelFlow: {
    ...copy.cancelFlow,
    ends: (end: string | null) => (end ? fill(copy.cancelFlow.endsOn, { end }) : copy.cancelFlow.endsNoDate),
    pause: {
      ...copy.cancelFlow.pause,
      months: (months: number) => (months === 1 ? copy.cancelFlow.pause.oneMonth : fill(copy.cancelFlow.pause.months, { months })),
    },
    discount: {
      ...copy.cancelFlow.discount,
      body: (discount: string) => fill(copy.cancelFlow.discount.body, { discount }),
      accept: (discount: string) => fill(copy.cancelFlow.discount.accept, { discount }),
    },
  },
};
