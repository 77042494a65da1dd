import type { AccountMembership } from '@contracts/account';
import { formatMoney } from '@contracts/money';
import type { PaymentProviderName } from '@contracts/payments';
import { useRef, useState } from 'react';
import { account as copy } from '@/content/account';
import { formatLongDateUtc } from '@/content/dates';
import { ApiError } from '@/lib/api-client';
import { cancelMembership, openBillingPortal, pauseMembership, resumeMembership, takeSaveOffer } from '../api/account-actions';
import { CancelDialog, discountWords } from './cancel-dialog';
import { CardUpdateForm } from './card-update-form';

const messageOf = (error: unknown) => (error instanceof ApiError && error.serverMessage) || copy.signIn.errorFallback;

/** One membership: its state in words, its payments, and what the buyer may do with it. */
export function MembershipCard({
  membership,
  provider,
  csrfToken,
  onChanged,
}: {
  membership: AccountMembership;
  provider: PaymentProviderName;
  csrfToken: string;
  /** The membership as the server answered an action on it. */
  onChanged: (membership: AccountMembership) => void;
}) {
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [editingCard, setEditingCard] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; message: string } | null>(null);
  const [portalPending, setPortalPending] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const headingId = `membership-${membership.orderId}`;
  const periodEnd = membership.currentPeriodEnd ? formatLongDateUtc(membership.currentPeriodEnd) : null;

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

  const closeFlow = () => {
    setConfirming(false);
    cancelButton.current?.focus();
  };

  const manageBilling = async () => {
    setPortalPending(true);
    try {
      const { url } = await openBillingPortal(csrfToken, membership.orderId);
      window.location.assign(url);
    } catch (error) {
      setNotice({ tone: 'error', message: messageOf(error) });
      setPortalPending(false);
    }
  };

  return (
    <article className="account__membership" aria-labelledby={headingId} data-testid="membership">
      <h3 id={headingId}>{membership.planName}</h3>
      <p className="account__plan">{membership.displayText}</p>
      <dl className="account__facts">
        <div>
          <dt>{copy.status}</dt>
          <dd data-testid="membership-status">
            {membership.state === 'paused' && membership.pausedUntil ? copy.paused(formatLongDateUtc(membership.pausedUntil)) : membership.statusText}
          </dd>
        </div>
        {periodEnd && membership.state !== 'canceled' ? (
          <div>
            <dt>{copy.periodEnd}</dt>
            <dd>{periodEnd}</dd>
          </div>
        ) : null}
      </dl>
      <h4>{copy.paymentsHeading}</h4>
      {membership.payments.length === 0 ? (
        <p>{copy.noPayments}</p>
      ) : (
        <ul className="account__payments" data-testid="membership-payments">
          {membership.payments.map((payment) => (
            <li key={payment.sequence}>
              <span>{copy.paymentNumber(payment.sequence)}</span> <span>{formatMoney(payment.amountCents, payment.currency)}</span>{' '}
              <span>{formatLongDateUtc(payment.paidAt)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="account__actions">
        {membership.canCancel ? (
          <button
            ref={cancelButton}
            type="button"
            className="button button--secondary"
            disabled={changing}
            onClick={() => setConfirming(true)}
          >
            {copy.cancel}
          </button>
        ) : null}
        {membership.canResume ? (
          <button
            type="button"
            className="button button--cta"
            disabled={changing}
            onClick={() => void run(() => resumeMembership(csrfToken, membership.orderId), () => copy.resumed)}
          >
            {changing ? copy.working : copy.resume}
          </button>
        ) : null}
        {membership.canUpdateCard && provider === 'stripe' ? (
          <button type="button" className="button button--secondary" disabled={portalPending} onClick={() => void manageBilling()}>
            {portalPending ? copy.working : copy.manageBilling}
          </button>
        ) : null}
        {membership.canUpdateCard && provider !== 'stripe' && !editingCard ? (
          <button type="button" className="button button--secondary" onClick={() => setEditingCard(true)}>
            {copy.updateCard}
          </button>
        ) : null}
      </div>
      {editingCard ? (
        <CardUpdateForm
          orderId={membership.orderId}
          csrfToken={csrfToken}
          onSaved={onChanged}
          onDone={(saved) => {
            setEditingCard(false);
            if (saved) setNotice({ tone: 'ok', message: copy.card.saved });
          }}
        />
      ) : null}
      <p className={notice?.tone === 'error' ? 'account__alert' : 'account__note'} role="status" data-testid="membership-notice">
        {notice?.message}
      </p>
      <CancelDialog
        open={confirming}
        membership={membership}
        periodEnd={periodEnd}
        busy={changing}
        onClose={closeFlow}
        onCancelNow={(answer) => void run(() => cancelMembership(csrfToken, { orderId: membership.orderId, ...answer }), () => copy.canceled)}
        onPause={(answer, months) =>
          void run(
            () => pauseMembership(csrfToken, { orderId: membership.orderId, ...answer, months }),
            (changed) => copy.pausedNotice(changed.pausedUntil ? formatLongDateUtc(changed.pausedUntil) : ''),
          )
        }
        onDiscount={(answer) => {
          const discount = membership.offers.discount;
          void run(
            () => takeSaveOffer(csrfToken, { orderId: membership.orderId, ...answer }),
            () => copy.discountedNotice(discount ? discountWords(discount) : ''),
          );
        }}
      />
    </article>
  );
}
