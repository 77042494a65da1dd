import type { SandboxConfirmRequest, SandboxConfirmResponse } from '@contracts/payments';
import { useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { sandboxCard as copy } from '@/content/sandbox-card';
import { sandboxConfirmPayment } from '../api/sandbox-confirm-payment';
import { sandboxConfirmSetup } from '../api/sandbox-confirm-setup';
import type { ConfirmResult, PaymentFormProps } from './provider-types';
import { checkCard, formatCardNumber, formatCvc, formatExpiry, type CardField, type CardFields } from './sandbox-card';

const EMPTY: CardFields = { number: '', expiry: '', cvc: '', postalCode: '' };

/** The sandbox's authentication page is ours; anything else would be an open redirect. */
function sameOrigin(url: string): string | null {
  try {
    const target = new URL(url, window.location.origin);
    return target.origin === window.location.origin ? target.href : null;
  } catch {
    return null;
  }
}

/** A sandbox answer as Stripe.js's result; an authentication page is followed at once. */
export function toResult(response: SandboxConfirmResponse): ConfirmResult {
  if ('redirectUrl' in response) {
    const target = sameOrigin(response.redirectUrl);
    if (!target) return { kind: 'error', message: null };
    window.location.assign(target);
    return { kind: 'redirecting' };
  }
  if ('error' in response) return { kind: 'error', message: response.error.message };
  return { kind: 'intent', id: response.intent.id, status: response.intent.status };
}

type CardError = { field: CardField; message: string } | null;

/** Hands the checkout this form's confirmer: it checks the card typed so far, then asks the sandbox. */
function useSandboxConfirmer({ clientSecret, onReady }: PaymentFormProps, fields: CardFields, setError: (error: CardError) => void) {
  const current = useRef(fields);
  current.current = fields;
  useEffect(() => {
    const confirm = async (
      call: (request: SandboxConfirmRequest) => Promise<SandboxConfirmResponse>,
      returnUrl: string,
    ): Promise<ConfirmResult> => {
      const check = checkCard(current.current);
      if (!check.ok) {
        setError({ field: check.field, message: check.message });
        return { kind: 'error', message: check.message };
      }
      setError(null);
      return toResult(await call({ clientSecret, card: check.card, returnUrl }));
    };
    onReady({
      confirmSetup: (returnUrl) => confirm(sandboxConfirmSetup, returnUrl),
      confirmPayment: (returnUrl) => confirm(sandboxConfirmPayment, returnUrl),
    });
  }, [clientSecret, onReady, setError]);
}

function CardInput({ label, ...input }: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={input.id}>{label}</label>
      <input {...input} />
    </div>
  );
}

/**
 * The 'Test mode' card form shown in place of Stripe's Payment Element when no Stripe keys are
 * configured. Card details go only to our own API's sandbox, which answers like Stripe.
 */
export function SandboxCardForm(props: PaymentFormProps) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [error, setError] = useState<CardError>(null);
  useSandboxConfirmer(props, fields, setError);

  const update = (field: keyof CardFields, value: string) => {
    setFields((previous) => ({ ...previous, [field]: value }));
    if (error?.field === field) setError(null);
  };
  const invalid = (field: CardField) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': 'sandbox-card-error' } : {});

  return (
    <div className="sandbox-card" data-testid="sandbox-card-form">
      <p className="sandbox-card__badge">{copy.badge}</p>
      {/* Folded, so the form fits the space the page reserves for a card form (no layout shift). */}
      <details className="sandbox-card__hint" id="sandbox-card-hint">
        <summary>{copy.intro}</summary>
        <ul>
          {copy.testCards.map((card) => (
            <li key={card.number}>
              <code>{card.number}</code> {card.outcome}
            </li>
          ))}
        </ul>
        <p>{copy.testCardHint}</p>
      </details>
      <CardInput
        id="sandbox-card-number"
        label={copy.cardNumber}
        name="cardnumber"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={fields.number}
        onChange={(event) => update('number', formatCardNumber(event.currentTarget.value))}
        {...invalid('number')}
      />
      <div className="sandbox-card__row">
        <CardInput
          id="sandbox-card-expiry"
          label={copy.expiry}
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={copy.expiryPlaceholder}
          value={fields.expiry}
          onChange={(event) => update('expiry', formatExpiry(event.currentTarget.value))}
          {...invalid('expiry')}
        />
        <CardInput
          id="sandbox-card-cvc"
          label={copy.cvc}
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          value={fields.cvc}
          onChange={(event) => update('cvc', formatCvc(event.currentTarget.value))}
          {...invalid('cvc')}
        />
        <CardInput
          id="sandbox-card-postal"
          label={copy.postalCode}
          name="postal"
          autoComplete="postal-code"
          value={fields.postalCode}
          onChange={(event) => update('postalCode', event.currentTarget.value)}
        />
      </div>
      <p id="sandbox-card-error" className="field__error" role={error ? 'alert' : undefined}>
        {error?.message}
      </p>
    </div>
  );
}
