import type { AccountMembership } from '@contracts/account';
import {
  CANCEL_REASONS,
  type CancelReason,
  offerFor,
  PAUSE_MONTHS,
  type PauseMonths,
  type SaveOfferDiscount,
} from '@contracts/cancellation';
import { formatMoney } from '@contracts/money';
import { useEffect, useId, useRef, useState } from 'react';
import { account as copy } from '@/content/account';

/** The survey's answer as the flow holds it: a reason once one is picked, and the free text of 'other'. */
export interface SurveyAnswer {
  reason?: CancelReason;
  detail?: string;
}

/** How the save offer's discount reads: '20%' or '$10.00'. */
export const discountWords = (discount: SaveOfferDiscount): string =>
  discount.percentOff !== null ? `${discount.percentOff}%` : formatMoney(discount.amountOffCents ?? 0, discount.currency);

/** The survey: why the member leaves, and in their own words when the reason is 'other'. */
function Survey({
  reason,
  onReason,
  detail,
  onDetail,
}: {
  reason: CancelReason | undefined;
  onReason: (reason: CancelReason) => void;
  detail: string;
  onDetail: (detail: string) => void;
}) {
  const detailId = useId();
  const flow = copy.cancelFlow;
  return (
    <>
      <fieldset className="account__reasons">
        <legend>{flow.question}</legend>
        {CANCEL_REASONS.map((value) => (
          <label key={value}>
            <input type="radio" name="cancel-reason" value={value} checked={reason === value} onChange={() => onReason(value)} />{' '}
            {flow.reasons[value]}
          </label>
        ))}
      </fieldset>
      {reason === 'other' ? (
        <p className="account__field">
          <label htmlFor={detailId}>{flow.detailLabel}</label>
          <input id={detailId} type="text" maxLength={500} value={detail} onChange={(event) => onDetail(event.target.value)} />
        </p>
      ) : null}
    </>
  );
}

/** The offer's answers: the discount taken, or a pause of one of the lengths offered. */
function OfferButtons({
  offer,
  discount,
  busy,
  onDiscount,
  onPause,
}: {
  offer: 'discount' | 'pause' | null;
  discount: SaveOfferDiscount | null;
  busy: boolean;
  onDiscount: () => void;
  onPause: (months: PauseMonths) => void;
}) {
  const flow = copy.cancelFlow;
  if (offer === 'discount' && discount)
    return (
      <button type="button" className="button button--cta" disabled={busy} onClick={onDiscount}>
        {flow.discount.accept(discountWords(discount))}
      </button>
    );
  return offer === 'pause'
    ? PAUSE_MONTHS.map((months) => (
        <button key={months} type="button" className="button button--cta" disabled={busy} onClick={() => onPause(months)}>
          {flow.pause.months(months)}
        </button>
      ))
    : null;
}

interface CancelDialogProps {
  open: boolean;
  membership: Pick<AccountMembership, 'offers'>;
  periodEnd: string | null;
  busy: boolean;
  onCancelNow: (answer: SurveyAnswer) => void;
  onPause: (answer: SurveyAnswer & { reason: CancelReason }, months: PauseMonths) => void;
  onDiscount: (answer: SurveyAnswer & { reason: CancelReason }) => void;
  onClose: () => void;
}

/**
 * 'Cancel membership' opens this modal <dialog>: one question (why), then, for the reason given,
 * one offer (a pause, or the save offer's discount) instead of cancelling. 'No thanks, cancel' is
 * on every step, so cancelling takes two clicks from the account page; the safe choice, keeping
 * the membership, has the focus first. The browser traps focus in it and Escape closes it.
 */
export function CancelDialog({ open, membership, periodEnd, busy, onCancelNow, onPause, onDiscount, onClose }: CancelDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [reason, setReason] = useState<CancelReason | undefined>();
  const [detail, setDetail] = useState('');
  const [step, setStep] = useState<'survey' | 'offer'>('survey');

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setStep('survey');
      setReason(undefined);
      setDetail('');
      element.showModal();
      keep.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const { discount } = membership.offers;
  const offer = reason ? offerFor(reason, discount !== null) : null;
  const hasOffer = offer === 'discount' || (offer === 'pause' && membership.offers.pause);
  const answer = (): SurveyAnswer => ({ reason, ...(reason === 'other' && detail.trim() ? { detail: detail.trim() } : {}) });
  const answered = (): SurveyAnswer & { reason: CancelReason } => ({ ...answer(), reason: reason as CancelReason });
  const flow = copy.cancelFlow;
  const [title, body] =
    step === 'survey'
      ? [flow.title, flow.ends(periodEnd)]
      : offer === 'discount' && discount
        ? [flow.discount.title, flow.discount.body(discountWords(discount))]
        : [flow.pause.title, flow.pause.body];

  return (
    <dialog
      ref={dialog}
      className="account__dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="cancel-dialog"
    >
      <h2 id={titleId}>{title}</h2>
      <p id={bodyId}>{body}</p>
      {step === 'survey' ? <Survey reason={reason} onReason={setReason} detail={detail} onDetail={setDetail} /> : null}
      <div className="account__actions">
        <button ref={keep} type="button" className="button button--secondary" onClick={onClose}>
          {flow.keep}
        </button>
        {step === 'survey' && hasOffer ? (
          <button type="button" className="button button--cta" onClick={() => setStep('offer')}>
            {flow.continue}
          </button>
        ) : null}
        {step === 'offer' ? (
          <OfferButtons
            offer={offer}
            discount={discount}
            busy={busy}
            onDiscount={() => onDiscount(answered())}
            onPause={(months) => onPause(answered(), months)}
          />
        ) : null}
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => onCancelNow(answer())}>
          {flow.cancelNow}
        </button>
      </div>
    </dialog>
  );
}
