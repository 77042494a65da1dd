import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { notify } from '@/components/toast/notify';
import { adminOrders } from '@/content/admin-orders';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';

type ConfirmDialogProps = {
  title: string;
  /** While the write is under way: both buttons wait and Escape does not close. */
  busy: boolean;
  failure: string | null;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
};

/** The modal confirmation of an admin write that moves money: its question, the server's refusal, Cancel and a danger button. */
export function ConfirmDialog({ title, busy, failure, cancelLabel, confirmLabel, onConfirm, onClose, children }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="orders-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (busy) event.preventDefault();
        else onClose();
      }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
        noValidate
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        {failure ? (
          <p className="admin-field__error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="orders-dialog__actions">
          <button type="button" className="admin-button" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="submit" className="admin-button admin-button--danger" disabled={busy}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * What a refused write shows in its dialog: a lapsed session closes the dialog and says so (the
 * page then asks for the sign-in), anything else is the server's message, or the fallback.
 */
export function useDialogFailure(onClose: () => void, fallback: string) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const fail = (error: unknown) => {
    if (forgetSessionOn401(queryClient, error)) {
      notify({ tone: 'destructive', title: adminOrders.sessionEnded, description: adminOrders.sessionEndedDescription });
      onClose();
      return;
    }
    setFailure((error instanceof ApiError && error.serverMessage) || fallback);
  };
  return { failure, clear: () => setFailure(null), fail };
}
