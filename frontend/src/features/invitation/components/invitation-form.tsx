import { useContext, useRef, useState, type FormEvent } from 'react';
import { formText } from '@/lib/form-text';
import { EmailField } from '@/components/email-field';
import { notify } from '@/components/toast/notify';
import { invitation as copy } from '@/content/invitation';
import { ApiError } from '@/lib/api-client';
import { PageNavigation } from '@/lib/page-navigation';
import { useHydrated } from '@/lib/use-hydrated';
import { submitInvitation } from '../api/submit-invitation';
import {
  blackcardPath,
  buildInvitationRequest,
  validateInvitation,
  type InvitationFieldErrors,
  type InvitationFormValues,
} from '../invitation-request';

function readForm(form: HTMLFormElement): InvitationFormValues {
  const data = new FormData(form);
  const field = (name: string) => formText(data, name).trim();
  return { name: field('name'), email: field('email'), phone: field('phone'), invitedBy: field('invitedBy') };
}

/** Spec section 8: the server's message, else the non-OK fallback; a failed request (offline) gets the generic one. */
function errorDescription(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? copy.toasts.errorFallback;
  return copy.toasts.networkFallback;
}

/**
 * Submitting the invitation form: editing → submitting → /blackcard with the token, the
 * confirmation view (`onEmailDelivery`), or back to editing with an error toast. Invalid fields
 * keep it from being sent, and the first of them takes the focus.
 */
function useInvitationSubmit(onEmailDelivery: () => void) {
  const goTo = useContext(PageNavigation);
  const nameInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<InvitationFieldErrors>({});
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const values = readForm(event.currentTarget);
    const found = validateInvitation(values);
    setErrors(found);
    if (found.name) return nameInput.current?.focus();
    if (found.email) return emailInput.current?.focus();

    let accessToken: string | undefined;
    setSubmitting(true);
    try {
      ({ accessToken } = await submitInvitation(buildInvitationRequest(values)));
    } catch (error) {
      notify({ tone: 'error', title: copy.toasts.errorTitle, description: errorDescription(error) });
      return;
    } finally {
      setSubmitting(false);
    }
    if (accessToken) {
      goTo(blackcardPath(accessToken));
      return;
    }
    notify({ tone: 'success', title: copy.toasts.successTitle, description: copy.toasts.successBody });
    onEmailDelivery();
  }

  return { nameInput, emailInput, errors, setErrors, submitting, handleSubmit };
}

/**
 * The invitation form (spec sections 4 and 5), every field still filled in after a failed submit.
 * Part of the prerendered page's island: inputs are uncontrolled so text typed before hydration
 * is kept, and the button stays disabled until React owns the form (a native submit would put the
 * visitor's details into the address).
 */
export function InvitationForm({ onEmailDelivery }: { onEmailDelivery: () => void }) {
  const hydrated = useHydrated();
  const { nameInput, emailInput, errors, setErrors, submitting, handleSubmit } = useInvitationSubmit(onEmailDelivery);

  const clearWhenValid = (field: keyof InvitationFieldErrors, form: HTMLFormElement | null) => {
    if (!errors[field] || !form) return;
    if (!validateInvitation(readForm(form))[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <form
      className="invitation__card invitation__form"
      noValidate
      onSubmit={handleSubmit}
      aria-label={copy.form.heading}
      data-testid="invitation-form"
    >
      <p className="invitation__form-intro">{copy.form.intro}</p>
      <div className="field">
        <label htmlFor="invitation-name">{copy.form.nameLabel}</label>
        <input
          ref={nameInput}
          id="invitation-name"
          name="name"
          type="text"
          autoComplete="name"
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'invitation-name-error' : undefined}
          onChange={(event) => clearWhenValid('name', event.currentTarget.form)}
        />
        {errors.name ? (
          <p id="invitation-name-error" className="field__error" data-testid="name-error">
            {errors.name}
          </p>
        ) : null}
      </div>
      <EmailField
        ref={emailInput}
        id="invitation-email"
        label={copy.form.emailLabel}
        error={errors.email ?? null}
        errorTestId="email-error"
        onChange={(event) => clearWhenValid('email', event.currentTarget.form)}
      />
      <div className="field">
        <label htmlFor="invitation-phone">{copy.form.phoneLabel}</label>
        <input id="invitation-phone" name="phone" type="tel" autoComplete="tel" />
      </div>
      <div className="field">
        <label htmlFor="invitation-invited-by">{copy.form.invitedByLabel}</label>
        <input id="invitation-invited-by" name="invitedBy" type="text" autoComplete="off" />
      </div>
      <button type="submit" className="button button--cta button--block" disabled={submitting || !hydrated} data-testid="invitation-submit">
        {submitting ? copy.form.pending : copy.form.submit}
      </button>
      <p className="invitation__privacy">{copy.form.privacy}</p>
    </form>
  );
}
