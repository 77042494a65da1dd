import { useEffect, useRef, useState, type FormEvent } from 'react';
import { account as copy } from '@/content/account';
import { sandboxCard as sandbox } from '@/content/sandbox-card';
import { ApiError } from '@/lib/api-client';
import { formText } from '@/lib/form-text';
import type { AccountMembership } from '@contracts/account';
import { applyCardUpdate, startCardUpdate } from '../api/account-actions';
import { confirmCardSetup } from '../api/confirm-card-setup';

const digits = (value: string) => value.replace(/\D/g, '');

interface CardUpdateFormProps {
  orderId: string;
  csrfToken: string;
  /** The membership with its new card, as the server answered. */
  onSaved: (membership: AccountMembership) => void;
  onDone: (saved: boolean) => void;
}

/**
 * 'Update card' with the sandbox: its 'Test mode' card form, as at checkout. A card setup is
 * created for the membership, confirmed with the card typed here, and then applied to the
 * subscription, whose next payments use it.
 */
export function CardUpdateForm({ orderId, csrfToken, onSaved, onDone }: CardUpdateFormProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const number = digits(formText(data, 'cardnumber'));
    const expiry = digits(formText(data, 'exp-date'));
    const cvc = digits(formText(data, 'cvc'));
    if (number.length < 13) return setError(sandbox.errors.number);
    if (expiry.length !== 4) return setError(sandbox.errors.expiry);
    if (cvc.length < 3) return setError(sandbox.errors.cvc);
    setError(null);
    setPending(true);
    try {
      const setup = await startCardUpdate(csrfToken, orderId);
      const card = { number, expMonth: Number(expiry.slice(0, 2)), expYear: 2000 + Number(expiry.slice(2)), cvc };
      const confirmed = await confirmCardSetup({ clientSecret: setup.clientSecret, card, returnUrl: window.location.href });
      if ('error' in confirmed) throw new Error(confirmed.error.message);
      if (!('intent' in confirmed)) throw new Error(copy.signIn.errorFallback);
      onSaved(await applyCardUpdate(csrfToken, orderId, setup.setupIntentId));
      onDone(true);
    } catch (err) {
      setError(
        err instanceof ApiError ? (err.serverMessage ?? copy.signIn.errorFallback) : (err as Error).message || copy.signIn.errorFallback,
      );
      setPending(false);
    }
  }

  return (
    <form className="account__card-form" noValidate onSubmit={handleSubmit} aria-labelledby="account-card-heading">
      <h4 id="account-card-heading" ref={heading} tabIndex={-1}>
        {copy.card.heading}
      </h4>
      <p className="account__badge">{sandbox.badge}</p>
      <p>
        {sandbox.intro} <code>4242 4242 4242 4242</code>. {sandbox.testCardHint}
      </p>
      <div className="field">
        <label htmlFor={`card-number-${orderId}`}>{sandbox.cardNumber}</label>
        <input id={`card-number-${orderId}`} name="cardnumber" inputMode="numeric" autoComplete="cc-number" />
      </div>
      <div className="field">
        <label htmlFor={`card-expiry-${orderId}`}>{sandbox.expiry}</label>
        <input
          id={`card-expiry-${orderId}`}
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={sandbox.expiryPlaceholder}
        />
      </div>
      <div className="field">
        <label htmlFor={`card-cvc-${orderId}`}>{sandbox.cvc}</label>
        <input id={`card-cvc-${orderId}`} name="cvc" inputMode="numeric" autoComplete="cc-csc" />
      </div>
      <p className="field__error" role={error ? 'alert' : undefined}>
        {error}
      </p>
      <div className="account__actions">
        <button type="submit" className="button button--cta" disabled={pending}>
          {pending ? copy.working : copy.card.save}
        </button>
        <button type="button" className="button button--secondary" onClick={() => onDone(false)}>
          {copy.card.close}
        </button>
      </div>
    </form>
  );
}
