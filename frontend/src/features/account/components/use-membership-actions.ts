import type { AccountMembership } from '@contracts/account';
import type { CancelReason, PauseMonths } from '@contracts/cancellation';
import { useState } from 'react';
import { account as copy } from '@/content/account';
import { formatLongDateUtc } from '@/content/dates';
import { ApiError } from '@/lib/api-client';
import { cancelMembership, openBillingPortal, pauseMembership, resumeMembership, takeSaveOffer } from '../api/account-actions';
import { discountWords, type SurveyAnswer } from './cancel-dialog';

const messageOf = (error: unknown) => (error instanceof ApiError && error.serverMessage) || copy.signIn.errorFallback;

/** A survey answer that gives its reason, as a pause or the save offer requires. */
type ReasonGiven = SurveyAnswer & { reason: CancelReason };

export interface MembershipNotice {
  tone: 'ok' | 'error';
  message: string;
}

/**
 * What the buyer may do with one membership, each a request to the server: its answer replaces
 * the membership (`onChanged`), and a notice words what happened or why it failed.
 */
export function useMembershipActions(membership: AccountMembership, csrfToken: string, onChanged: (membership: AccountMembership) => void) {
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<MembershipNotice | null>(null);
  const [portalPending, setPortalPending] = useState(false);
  const { orderId } = membership;

  /** Runs one change of the membership; the server's answer replaces it, and `done` words what happened. */
  const run = async (change: () => Promise<AccountMembership>, done: (changed: AccountMembership) => string) => {
    setNotice(null);
    setChanging(true);
    try {
      const changed = await change();
      onChanged(changed);
      setNotice({ tone: 'ok', message: done(changed) });
    } catch (error) {
      setNotice({ tone: 'error', message: messageOf(error) });
    } finally {
      setConfirming(false);
      setChanging(false);
    }
  };

  const manageBilling = async () => {
    setPortalPending(true);
    try {
      const { url } = await openBillingPortal(csrfToken, orderId);
      window.location.assign(url);
    } catch (error) {
      setNotice({ tone: 'error', message: messageOf(error) });
      setPortalPending(false);
    }
  };

  return {
    changing,
    confirming,
    setConfirming,
    notice,
    setNotice,
    portalPending,
    manageBilling,
    resume: () =>
      void run(
        () => resumeMembership(csrfToken, orderId),
        () => copy.resumed,
      ),
    cancelNow: (answer: SurveyAnswer) =>
      void run(
        () => cancelMembership(csrfToken, { orderId, ...answer }),
        () => copy.canceled,
      ),
    pause: (answer: ReasonGiven, months: PauseMonths) =>
      void run(
        () => pauseMembership(csrfToken, { orderId, ...answer, months }),
        (changed) => copy.pausedNotice(changed.pausedUntil ? formatLongDateUtc(changed.pausedUntil) : ''),
      ),
    takeDiscount: (answer: ReasonGiven) => {
      const discount = membership.offers.discount;
      void run(
        () => takeSaveOffer(csrfToken, { orderId, ...answer }),
        () => copy.discountedNotice(discount ? discountWords(discount) : ''),
      );
    },
  };
}
