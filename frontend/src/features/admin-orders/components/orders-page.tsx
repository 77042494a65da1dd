import type { AdminBillingOrder, AdminPayment } from '@contracts/admin';
import { findPlan } from '@contracts/plans';
import { useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { adminOrders as copy } from '@/content/admin-orders';
import { pages } from '@/content/pages';
import { ORDERS_PAGE_SIZE, useBillingOrders } from '../api/get-billing-orders';
import { formatCents, formatTime } from '../money';
import { RefundDialog } from './refund-dialog';
import { StopInstalmentsDialog } from './stop-instalments-dialog';
import '../admin-orders.css';

const planName = (planId: string) => findPlan(planId)?.name ?? planId;

function PaymentRow({ payment, onRefund }: { payment: AdminPayment; onRefund: (payment: AdminPayment) => void }) {
  return (
    <tr>
      <th scope="row">{payment.sequence}</th>
      <td>{formatCents(payment.amountCents, payment.currency)}</td>
      <td>{formatTime(payment.paidAt)}</td>
      <td>
        {payment.refunds.length === 0 ? (
          copy.payment.none
        ) : (
          <ul className="orders-refunds">
            {payment.refunds.map((refund) => (
              <li key={refund.id}>
                {copy.payment.refundLine(
                  formatCents(refund.amountCents, payment.currency),
                  refund.status,
                  refund.reason,
                  refund.requestedBy,
                )}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {payment.refundableCents > 0 ? (
          <button
            type="button"
            className="admin-button"
            aria-label={copy.payment.refundLabel(payment.sequence)}
            onClick={() => onRefund(payment)}
          >
            {copy.payment.refund}
          </button>
        ) : (
          copy.payment.fullyRefunded
        )}
      </td>
    </tr>
  );
}

/** An instalment plan still charging: paid, its access not ended, not stopped, not paid in full. */
const instalmentsRunning = (order: AdminBillingOrder): boolean =>
  order.instalments !== null &&
  order.paidAt !== null &&
  !order.accessRevokedAt &&
  !order.instalmentsStoppedAt &&
  order.payments.length < order.instalments;

/** The payment a Refund was clicked for, with the add-on its order's first payment included (refundable alone). */
interface Refunding {
  payment: AdminPayment;
  bump: AdminBillingOrder['bump'];
}

/** The order's reference, dates and state: refunded, ended, disputed, instalments paid. */
function OrderFacts({ order }: { order: AdminBillingOrder }) {
  return (
    <dl className="orders-facts">
      <dt>{copy.order.reference}</dt>
      <dd className="orders-id">{order.id}</dd>
      <dt>{copy.order.placed}</dt>
      <dd>{formatTime(order.createdAt)}</dd>
      <dt>{copy.order.status}</dt>
      <dd>
        {order.status}
        {order.testOrder ? ` (${copy.order.testOrder})` : ''}
      </dd>
      {order.refundedCents > 0 ? (
        <>
          <dt>{copy.order.refunded}</dt>
          <dd>{formatCents(order.refundedCents, order.currency)}</dd>
        </>
      ) : null}
      {order.accessRevokedAt ? (
        <>
          <dt>{copy.order.accessEnded}</dt>
          <dd>{formatTime(order.accessRevokedAt)}</dd>
        </>
      ) : null}
      {order.disputeStatus ? (
        <>
          <dt>{copy.order.dispute}</dt>
          <dd>{order.disputeStatus}</dd>
        </>
      ) : null}
      {order.instalments !== null && order.paidAt ? (
        <>
          <dt>{copy.order.instalments}</dt>
          <dd>
            {copy.order.instalmentsPaid(order.payments.length, order.instalments)}
            {order.instalmentsStoppedAt ? `, ${copy.order.instalmentsStopped(formatTime(order.instalmentsStoppedAt))}` : ''}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function OrderCard({
  order,
  onRefund,
  onStopInstalments,
}: {
  order: AdminBillingOrder;
  onRefund: (refunding: Refunding) => void;
  onStopInstalments: (order: AdminBillingOrder) => void;
}) {
  return (
    <li className="admin-card orders-card" data-testid="order-card">
      <h2 className="orders-card__title">
        {order.email} · {planName(order.planId)}
      </h2>
      <OrderFacts order={order} />
      {instalmentsRunning(order) ? (
        <button type="button" className="admin-button admin-button--danger" onClick={() => onStopInstalments(order)}>
          {copy.order.stopInstalments}
        </button>
      ) : null}
      {order.payments.length === 0 ? (
        <p className="orders-hint">{copy.order.noPayments}</p>
      ) : (
        <div className="orders-table-wrap">
          <table className="orders-table">
            <caption className="visually-hidden">{copy.order.paymentsCaption(order.email)}</caption>
            <thead>
              <tr>
                <th scope="col">{copy.payment.number}</th>
                <th scope="col">{copy.payment.amount}</th>
                <th scope="col">{copy.payment.paidAt}</th>
                <th scope="col">{copy.payment.refunds}</th>
                <th scope="col">{copy.payment.action}</th>
              </tr>
            </thead>
            <tbody>
              {order.payments.map((payment) => (
                <PaymentRow
                  key={payment.id}
                  payment={payment}
                  onRefund={() => onRefund({ payment, bump: payment.sequence === 1 ? order.bump : null })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}

/** The orders screen: search, newest orders first, each with its payments, a Refund per payment and an instalment plan's Stop. */
export function OrdersPage() {
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<Refunding | null>(null);
  const [stopping, setStopping] = useState<AdminBillingOrder | null>(null);
  const orders = useBillingOrders(q, page);
  const data = orders.data;
  const pagesTotal = Math.max(1, Math.ceil((data?.total ?? 0) / ORDERS_PAGE_SIZE));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(draft.trim());
    setPage(1);
  };

  return (
    <div className="admin__page orders-page">
      <PageHeading>{pages.adminOrders.heading}</PageHeading>
      <p>{copy.intro}</p>
      <form className="orders-search" role="search" onSubmit={submit}>
        <div className="admin-field">
          <label htmlFor="orders-q">{copy.searchLabel}</label>
          <input id="orders-q" type="search" maxLength={254} autoComplete="off" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="admin-button">
          {copy.search}
        </button>
      </form>
      <div aria-live="polite" aria-busy={orders.isFetching}>
        {orders.isPending ? (
          <p className="orders-state" role="status">
            <span className="spinner" aria-hidden="true" /> {copy.loading}
          </p>
        ) : orders.isError && !data ? (
          <div className="orders-state" role="alert">
            <p>{copy.loadFailed}</p>
            <button type="button" className="admin-button" onClick={() => void orders.refetch()}>
              {copy.retry}
            </button>
          </div>
        ) : data && data.items.length === 0 ? (
          <p className="orders-state">{copy.empty}</p>
        ) : data ? (
          <>
            <ul className="orders-list">
              {data.items.map((order) => (
                <OrderCard key={order.id} order={order} onRefund={setRefunding} onStopInstalments={setStopping} />
              ))}
            </ul>
            <nav className="orders-pager" aria-label={copy.pagerLabel}>
              <button type="button" className="admin-button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {copy.previous}
              </button>
              <span>{copy.pageOf(page, pagesTotal, data.total)}</span>
              <button type="button" className="admin-button" disabled={page >= pagesTotal} onClick={() => setPage(page + 1)}>
                {copy.next}
              </button>
            </nav>
          </>
        ) : null}
      </div>
      {refunding ? (
        <RefundDialog key={refunding.payment.id} payment={refunding.payment} bump={refunding.bump} onClose={() => setRefunding(null)} />
      ) : null}
      {stopping ? <StopInstalmentsDialog key={stopping.id} order={stopping} onClose={() => setStopping(null)} /> : null}
    </div>
  );
}
