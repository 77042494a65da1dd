import type { AdminBillingOrder, AdminPayment } from '@contracts/admin';
import { findPlan } from '@contracts/plans';
import { useId, useState } from 'react';
import { notify } from '@/components/toast/notify';
import { adminOrders } from '@/content/admin-orders';
import { useRefundPayment } from '../api/refund-payment';
import { parseMoney } from '@/lib/parse-money';
import { formatCents } from '../money';
import { ConfirmDialog, useDialogFailure } from './confirm-dialog';

const copy = adminOrders.dialog;

interface RefundDialogProps {
  payment: AdminPayment;
  /** The add-on (order bump) this first payment included: offered as a refund of its own, at what it charged. */
  bump?: AdminBillingOrder['bump'];
  onClose: () => void;
}

type RefundMode = 'full' | 'partial' | 'bump';

/** What to refund: all that is left, an amount, or the add-on alone (when it is still refundable). */
function RefundModes({
  title,
  mode,
  onMode,
  left,
  bump,
}: {
  title: string;
  mode: RefundMode;
  onMode: (mode: RefundMode) => void;
  left: string;
  /** The add-on's name and amount, when it may be refunded alone. */
  bump: string | null;
}) {
  return (
    <fieldset className="orders-dialog__choice">
      <legend className="visually-hidden">{title}</legend>
      <label>
        <input type="radio" name="mode" checked={mode === 'full'} onChange={() => onMode('full')} /> {copy.full(left)}
      </label>
      <label>
        <input type="radio" name="mode" checked={mode === 'partial'} onChange={() => onMode('partial')} /> {copy.partial}
      </label>
      {bump ? (
        <label>
          <input type="radio" name="mode" checked={mode === 'bump'} onChange={() => onMode('bump')} /> {bump}
        </label>
      ) : null}
    </fieldset>
  );
}

/**
 * The confirmation of a refund, as a modal dialog: full by default, or a partial amount in the
 * payment's currency. Its request key is made when it opens, so a double click or a retry after a network
 * error is the same refund.
 */
export function RefundDialog({ payment, bump = null, onClose }: RefundDialogProps) {
  const [requestKey] = useState(() => crypto.randomUUID());
  const [mode, setMode] = useState<RefundMode>('full');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState(false);
  const refund = useRefundPayment();
  const { failure, clear, fail } = useDialogFailure(onClose, copy.failedFallback);
  const ids = useId();
  const money = (cents: number) => formatCents(cents, payment.currency);
  const left = money(payment.refundableCents);

  const partialCents = parseMoney(amount, payment.currency);
  const bumpRefundable = bump !== null && bump.amountCents <= payment.refundableCents;
  const cents = mode === 'full' ? payment.refundableCents : mode === 'bump' && bump ? bump.amountCents : partialCents;

  const confirm = () => {
    clear();
    if (mode === 'partial' && (partialCents === null || partialCents < 1 || partialCents > payment.refundableCents)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    refund.mutate(
      {
        paymentId: payment.id,
        requestKey,
        ...(mode === 'partial' && partialCents !== null ? { amountCents: partialCents } : {}),
        ...(mode === 'bump' ? { line: 'bump' as const } : {}),
      },
      {
        onSuccess: (done) => {
          notify({
            tone: 'success',
            title: adminOrders.refunded(money(done.amountCents)),
            description: adminOrders.refundedDescription,
          });
          onClose();
        },
        onError: fail,
      },
    );
  };

  return (
    <ConfirmDialog
      title={copy.title(payment.sequence)}
      busy={refund.isPending}
      failure={failure}
      cancelLabel={copy.cancel}
      confirmLabel={refund.isPending ? copy.pending : copy.confirm(cents && cents > 0 ? money(cents) : '')}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>{copy.summary(money(payment.amountCents), left)}</p>
      <RefundModes
        title={copy.title(payment.sequence)}
        mode={mode}
        onMode={setMode}
        left={left}
        bump={bumpRefundable && bump ? copy.bump(findPlan(bump.planId)?.name ?? bump.planId, money(bump.amountCents)) : null}
      />
      {mode === 'partial' ? (
        <div className="admin-field">
          <label htmlFor={`${ids}-amount`}>{copy.amountLabel(payment.currency)}</label>
          <input
            id={`${ids}-amount`}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            aria-invalid={invalid}
            aria-describedby={`${ids}-hint`}
            onChange={(e) => setAmount(e.target.value)}
          />
          <p id={`${ids}-hint`} className={invalid ? 'admin-field__error' : 'orders-hint'}>
            {invalid ? copy.amountInvalid(money(1), left) : copy.amountHint(money(1), left)}
          </p>
        </div>
      ) : (
        <p className="orders-hint">{mode === 'bump' ? copy.keepsAccess : copy.endsAccess}</p>
      )}
    </ConfirmDialog>
  );
}
