import type { AdminBillingOrder } from '@contracts/admin';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { notify } from '@/components/toast/notify';
import { adminOrders } from '@/content/admin-orders';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useStopInstalments } from '../api/stop-instalments';

const copy = adminOrders.stopDialog;

/** The confirmation of 'Stop instalments', as a modal dialog: stopping cannot be undone. */
export function StopInstalmentsDialog({ order, onClose }: { order: AdminBillingOrder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const stop = useStopInstalments();
  const ids = useId();
  const left = (order.instalments ?? 0) - order.payments.length;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    stop.mutate(order.id, {
      onSuccess: () => {
        notify({ tone: 'success', title: copy.stopped, description: copy.stoppedDescription });
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
    });
  };

  return (
    <dialog
      ref={dialog}
      className="orders-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={(event) => {
        if (stop.isPending) event.preventDefault();
        else onClose();
      }}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={`${ids}-title`}>{copy.title}</h2>
        <p>{copy.summary(order.email, left)}</p>
        <p className="orders-hint">{copy.final}</p>
        {failure ? (
          <p className="admin-field__error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="orders-dialog__actions">
          <button type="button" className="admin-button" onClick={onClose} disabled={stop.isPending}>
            {copy.cancel}
          </button>
          <button type="submit" className="admin-button admin-button--danger" disabled={stop.isPending}>
            {stop.isPending ? copy.pending : copy.confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
