import { SANDBOX_CLOCK_MAX_DAYS, type PaymentProviderName } from '@contracts/payments';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { notify } from '@/components/toast/notify';
import { adminSandboxClock as copy } from '@/content/admin-sandbox-clock';
import { pages } from '@/content/pages';
import { adminSessionKey, forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useAdvanceSandboxClock } from '../api/advance-sandbox-clock';
import '../admin-sandbox.css';

const wholeDays = (text: string): number | null => {
  const days = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  return days >= 1 && days <= SANDBOX_CLOCK_MAX_DAYS ? days : null;
};

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function ClockForm() {
  const queryClient = useQueryClient();
  const advance = useAdvanceSandboxClock();
  const ids = useId();
  const [days, setDays] = useState('30');
  const [invalid, setInvalid] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const advanceDays = wholeDays(days);
    setInvalid(advanceDays === null);
    setFailure(null);
    if (advanceDays === null) return;
    advance.mutate(
      { advanceDays },
      {
        onSuccess: ({ now }) => notify({ tone: 'success', title: copy.moved(advanceDays), description: copy.now(utc(now)) }),
        onError: (error) => {
          if (forgetSessionOn401(queryClient, error)) return;
          // Under production the clock answers 404 to anyone but a signed-in admin: the session may have ended.
          if (error instanceof ApiError && error.status === 404) void queryClient.invalidateQueries({ queryKey: adminSessionKey });
          setFailure((error instanceof ApiError && error.serverMessage) || copy.form.failed);
        },
      },
    );
  };

  return (
    <form className="admin-card admin-form sandbox-clock-form" onSubmit={submit} noValidate aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>{copy.form.heading}</h2>
      <div className="admin-field">
        <label htmlFor={`${ids}-days`}>{copy.form.days}</label>
        <input
          id={`${ids}-days`}
          type="number"
          inputMode="numeric"
          min={1}
          max={SANDBOX_CLOCK_MAX_DAYS}
          step={1}
          required
          value={days}
          aria-invalid={invalid}
          aria-describedby={`${ids}-hint${invalid ? ` ${ids}-error` : ''}`}
          onChange={(e) => setDays(e.target.value)}
        />
        <p id={`${ids}-hint`} className="sandbox-clock-hint">
          {copy.form.daysHint}
        </p>
        {invalid ? (
          <p id={`${ids}-error`} className="admin-field__error" role="alert">
            {copy.form.invalidDays}
          </p>
        ) : null}
      </div>
      <div className="admin-form__actions">
        <button type="submit" className="admin-button" disabled={advance.isPending}>
          {advance.isPending ? copy.form.moving : copy.form.submit}
        </button>
      </div>
      <div aria-live="polite">
        {failure ? (
          <p role="alert" className="admin-field__error">
            {failure}
          </p>
        ) : advance.isSuccess ? (
          <p role="status" data-testid="sandbox-clock-now">
            {copy.now(utc(advance.data.now))}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** The sandbox clock screen: offered only while the sandbox takes the payments. */
export function SandboxClockPage({ provider }: { provider: PaymentProviderName | undefined }) {
  return (
    <div className="admin__page sandbox-clock-page">
      <PageHeading>{pages.adminSandboxClock.heading}</PageHeading>
      {provider === 'sandbox' ? (
        <>
          <p>{copy.intro}</p>
          <ClockForm />
        </>
      ) : (
        <p role="status">{copy.notSandbox}</p>
      )}
    </div>
  );
}
