import type { AdminPayment } from '@contracts/admin';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { notify } from '@/components/toast/notify';
import { adminOrders } from '@/content/admin-orders';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useRefundPayment } from '../api/refund-payment';
import { parseDollars } from '@/lib/dollars';
import { formatCents } from '../money';

const copy = adminOrders.dialog;

/**
 * The confirmation of a refund, as a modal dialog: full by default, or a partial amount in
 * dollars. Its request key is made when it opens, so a double click or a retry after a network
 * error is the same refund.
 */
export function RefundDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [requestKey] = useState(() => crypto.randomUUID());
  const [mode, setMode] = useState<'full' | 'partial'>('full');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useRefundPayment();
  const ids = useId();
  const left = formatCents(payment.refundableCents);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const partialCents = parseDollars(amount);
  const cents = mode === 'full' ? payment.refundableCents : partialCents;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (mode === 'partial' && (partialCents === null || partialCents < 1 || partialCents > payment.refundableCents)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    refund.mutate(
      { paymentId: payment.id, requestKey, ...(mode === 'partial' && partialCents !== null ? { amountCents: partialCents } : {}) },
      {
        onSuccess: (done) => {
          notify({
            tone: 'success',
            title: adminOrders.refunded(formatCents(done.amountCents)),
            description: adminOrders.refundedDescription,
          });
          onClose();
        },
        onError: (error) => {
          if (forgetSessionOn401(queryClient, error)) {
            notify({ tone: 'destructive', title: adminOrders.sessionEnded, description: adminOrders.sessionEndedDescription });
            onClose();
            return;
          }
          setFailure((error instanceof ApiError && error.serverMessage) || copy.failedFallback);
        },
      },
    );
  };

  return (
    <dialog
      ref={dialog}
      className="orders-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={(event) => {
        if (refund.isPending) event.preventDefault();
        else onClose();
      }}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={`${ids}-title`}>{copy.title(payment.sequence)}</h2>
        <p>{copy.summary(formatCents(payment.amountCents), left)}</p>
        <fieldset className="orders-dialog__choice">
          <legend className="visually-hidden">{copy.title(payment.sequence)}</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'full'} onChange={() => setMode('full')} /> {copy.full(left)}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'partial'} onChange={() => setMode('partial')} /> {copy.partial}
          </label>
        </fieldset>
        {mode === 'partial' ? (
          <div className="admin-field">
            <label htmlFor={`${ids}-amount`}>{copy.amountLabel}</label>
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
              {invalid ? copy.amountInvalid(left) : copy.amountHint(left)}
            </p>
          </div>
        ) : (
          <p className="orders-hint">{copy.endsAccess}</p>
        )}
        {failure ? (
          <p className="admin-field__error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="orders-dialog__actions">
          <button type="button" className="admin-button" onClick={onClose} disabled={refund.isPending}>
            {copy.cancel}
          </button>
          <button type="submit" className="admin-button admin-button--danger" disabled={refund.isPending}>
            {refund.isPending ? copy.pending : copy.confirm(cents && cents > 0 ? formatCents(cents) : '')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
