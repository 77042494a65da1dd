import type { AccountMembership } from '@contracts/account';
import { formatMoney } from '@contracts/money';
import type { PaymentProviderName } from '@contracts/payments';
import { useRef, useState } from 'react';
import { account as copy } from '@/content/account';
import { formatLongDateUtc } from '@/content/dates';
import { CancelDialog } from './cancel-dialog';
import { CardUpdateForm } from './card-update-form';
import { useMembershipActions } from './use-membership-actions';

/** The membership's state in words, and the payments it has taken. */
function MembershipDetails({ membership, periodEnd }: { membership: AccountMembership; periodEnd: string | null }) {
  return (
    <>
      <dl className="account__facts">
        <div>
          <dt>{copy.status}</dt>
          <dd data-testid="membership-status">
            {membership.state === 'paused' && membership.pausedUntil
              ? copy.paused(formatLongDateUtc(membership.pausedUntil))
              : membership.statusText}
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
    </>
  );
}

interface MembershipCardProps {
  membership: AccountMembership;
  provider: PaymentProviderName;
  csrfToken: string;
  /** The membership as the server answered an action on it. */
  onChanged: (membership: AccountMembership) => void;
}

/** One membership: its state in words, its payments, and what the buyer may do with it. */
export function MembershipCard({ membership, provider, csrfToken, onChanged }: MembershipCardProps) {
  const actions = useMembershipActions(membership, csrfToken, onChanged);
  const { changing, notice } = actions;
  const [editingCard, setEditingCard] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const headingId = `membership-${membership.orderId}`;
  const periodEnd = membership.currentPeriodEnd ? formatLongDateUtc(membership.currentPeriodEnd) : null;

  const closeFlow = () => {
    actions.setConfirming(false);
    cancelButton.current?.focus();
  };

  return (
    <article className="account__membership" aria-labelledby={headingId} data-testid="membership">
      <h3 id={headingId}>{membership.planName}</h3>
      <p className="account__plan">{membership.displayText}</p>
      <MembershipDetails membership={membership} periodEnd={periodEnd} />
      <div className="account__actions">
        {membership.canCancel ? (
          <button
            ref={cancelButton}
            type="button"
            className="button button--secondary"
            disabled={changing}
            onClick={() => actions.setConfirming(true)}
          >
            {copy.cancel}
          </button>
        ) : null}
        {membership.canResume ? (
          <button type="button" className="button button--cta" disabled={changing} onClick={actions.resume}>
            {changing ? copy.working : copy.resume}
          </button>
        ) : null}
        {membership.canUpdateCard && provider === 'stripe' ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={actions.portalPending}
            onClick={() => void actions.manageBilling()}
          >
            {actions.portalPending ? copy.working : copy.manageBilling}
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
            if (saved) actions.setNotice({ tone: 'ok', message: copy.card.saved });
          }}
        />
      ) : null}
      <p className={notice?.tone === 'error' ? 'account__alert' : 'account__note'} role="status" data-testid="membership-notice">
        {notice?.message}
      </p>
      <CancelDialog
        open={actions.confirming}
        membership={membership}
        periodEnd={periodEnd}
        busy={changing}
        onClose={closeFlow}
        onCancelNow={actions.cancelNow}
        onPause={actions.pause}
        onDiscount={actions.takeDiscount}
      />
    </article>
  );
}
