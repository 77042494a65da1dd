import { useState, type FormEvent } from 'react';
import { checkout as copy } from '@/content/checkout';

interface CouponFieldProps {
  /** The code applied and accepted by the server, if any. */
  applied: string | null;
  pending: boolean;
  /** Why the last code tried cannot be used (the server's words). */
  message: string | null;
  onApply: (code: string) => void;
  onRemove: () => void;
}

/** 'Have a coupon?' in the Order Summary: a code field the server prices; its message when refused. */
export function CouponField({ applied, pending, message, onApply, onRemove }: CouponFieldProps) {
  const [open, setOpen] = useState(message !== null);
  const [code, setCode] = useState('');

  if (applied)
    return (
      <p className="checkout__coupon" data-testid="coupon-applied">
        <span>{applied}</span>{' '}
        <button type="button" className="checkout__link" onClick={onRemove}>
          {copy.coupon.remove}
        </button>
      </p>
    );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (code.trim()) onApply(code.trim());
  };

  return (
    <div className="checkout__coupon">
      {open || message ? (
        <form className="checkout__coupon-form" onSubmit={submit} noValidate data-testid="coupon-form">
          <label htmlFor="coupon-code">{copy.coupon.label}</label>
          <div className="checkout__coupon-row">
            <input
              id="coupon-code"
              name="coupon"
              autoComplete="off"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              maxLength={40}
            />
            <button type="submit" className="button button--secondary" disabled={pending || !code.trim()}>
              {pending ? copy.coupon.applying : copy.coupon.apply}
            </button>
          </div>
          {message ? (
            <p className="checkout__coupon-message" role="alert" data-testid="coupon-message">
              {message}
            </p>
          ) : null}
        </form>
      ) : (
        <button type="button" className="checkout__link" onClick={() => setOpen(true)} data-testid="coupon-toggle">
          {copy.coupon.toggle}
        </button>
      )}
    </div>
  );
}
