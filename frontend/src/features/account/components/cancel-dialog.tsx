import { useEffect, useId, useRef } from 'react';
import { account as copy } from '@/content/account';

/**
 * The confirmation before 'Cancel membership': a modal <dialog> (the browser traps focus in it,
 * Escape closes it) whose safe choice, keeping the membership, has the focus first.
 */
export function CancelDialog({
  open,
  periodEnd,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  periodEnd: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      keep.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="account__dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      data-testid="cancel-dialog"
    >
      <h2 id={titleId}>{copy.confirmCancel.title}</h2>
      <p id={bodyId}>{copy.confirmCancel.body(periodEnd)}</p>
      <div className="account__actions">
        <button ref={keep} type="button" className="button button--secondary" onClick={onCancel}>
          {copy.confirmCancel.keep}
        </button>
        <button type="button" className="button button--cta" onClick={onConfirm}>
          {copy.confirmCancel.confirm}
        </button>
      </div>
    </dialog>
  );
}
