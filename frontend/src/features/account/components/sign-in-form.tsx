import { useRef, useState, type FormEvent } from 'react';
import { EmailField } from '@/components/email-field';
import { account as copy } from '@/content/account';
import { ApiError } from '@/lib/api-client';
import { formText } from '@/lib/form-text';
import { requestLink } from '../api/request-link';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 'Send me a sign-in link': the answer is the same whether or not the address bought anything. */
export function SignInForm({ linkError }: { linkError: string | null }) {
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'sent' | 'error'; message: string } | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const email = formText(new FormData(event.currentTarget), 'email').trim();
    if (!EMAIL.test(email)) {
      setFieldError(copy.signIn.invalidEmail);
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setPending(true);
    try {
      await requestLink({ email });
      setOutcome({ tone: 'sent', message: copy.signIn.sent });
    } catch (error) {
      const message = error instanceof ApiError ? (error.serverMessage ?? copy.signIn.errorFallback) : copy.signIn.networkError;
      setOutcome({ tone: 'error', message });
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="account__panel" noValidate onSubmit={handleSubmit} aria-label={copy.signIn.submit} data-testid="account-sign-in">
      {linkError ? (
        <p className="account__alert" role="alert" data-testid="account-link-error">
          {linkError}
        </p>
      ) : null}
      <p>{copy.signIn.intro}</p>
      <EmailField ref={input} id="account-email" label={copy.signIn.emailLabel} error={fieldError} />
      <button type="submit" className="button button--cta button--block" disabled={pending}>
        {pending ? copy.signIn.pending : copy.signIn.submit}
      </button>
      <p className={outcome?.tone === 'error' ? 'account__alert' : 'account__note'} role="status" data-testid="account-link-outcome">
        {outcome?.message}
      </p>
    </form>
  );
}
