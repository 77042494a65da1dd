import type { AdminBillingOrder } from '@contracts/admin';
import { notify } from '@/components/toast/notify';
import { adminOrders } from '@/content/admin-orders';
import { useStopInstalments } from '../api/stop-instalments';
import { ConfirmDialog, useDialogFailure } from './confirm-dialog';

const copy = adminOrders.stopDialog;

/** The confirmation of 'Stop instalments', as a modal dialog: stopping cannot be undone. */
export function StopInstalmentsDialog({ order, onClose }: { order: AdminBillingOrder; onClose: () => void }) {
  const stop = useStopInstalments();
  const { failure, clear, fail } = useDialogFailure(onClose, copy.failedFallback);
  const left = (order.instalments ?? 0) - order.payments.length;

  const confirm = () => {
    clear();
    stop.mutate(order.id, {
      onSuccess: () => {
        notify({ tone: 'success', title: copy.stopped, description: copy.stoppedDescription });
        onClose();
      },
      onError: fail,
    });
  };

  return (
    <ConfirmDialog
      title={copy.title}
      busy={stop.isPending}
      failure={failure}
      cancelLabel={copy.cancel}
      confirmLabel={stop.isPending ? copy.pending : copy.confirm}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>{copy.summary(order.email, left)}</p>
      <p className="orders-hint">{copy.final}</p>
    </ConfirmDialog>
  );
}
