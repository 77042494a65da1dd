import { useContext, useRef, useState, type FormEvent } from 'react';
import { formText } from '@/lib/form-text';
import { EmailField } from '@/components/email-field';
import { notify } from '@/components/toast/notify';
import { leadCapture as copy } from '@/content/landing';
import { analyticsUserId, track } from '@/lib/analytics';
import { ApiError } from '@/lib/api-client';
import { defineIsland } from '@/lib/islands';
import { LEAD_EMAIL_FIELD_ID } from '@/lib/landing-anchors';
import { PageNavigation } from '@/lib/page-navigation';
import { waitForTrackingId } from '@/lib/referral';
import { useHydrated } from '@/lib/use-hydrated';
import { rememberVisitorEmail } from '@/lib/visitor';
import { createLead } from '../api/create-lead';
import { buildLeadRequest, checkoutPath, isValidEmail, type LeadFormValues } from '../lead-request';
import './lead-capture.css';

function readForm(form: HTMLFormElement): LeadFormValues {
  const data = new FormData(form);
  const field = (name: string) => formText(data, name).trim();
  return { email: field('email'), name: field('name'), phone: field('phone') };
}

/** What the visitor signs up for, beside the form's fields. */
function LeadSummary() {
  return (
    <div className="lead__summary" data-testid="lead-summary">
      <div className="lead__summary-row">
        <h3>{copy.summary.title}</h3>
        <p className="lead__price">{copy.summary.price}</p>
      </div>
      <p className="lead__cancel">{copy.summary.cancel}</p>
      <p className="lead__included">{copy.summary.includedHeading}</p>
      <ul className="check-list">
        {copy.summary.inclusions.map((inclusion) => (
          <li key={inclusion}>{inclusion}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The lead form (spec section 2, item 13; flow in section 4), an island of the landing page. Inputs
 * are uncontrolled so text typed into the prerendered page before hydration is kept, and a failed
 * submit leaves everything filled in.
 */
export function LeadForm() {
  const goTo = useContext(PageNavigation);
  const hydrated = useHydrated();
  const emailInput = useRef<HTMLInputElement>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  // Spans the request, the wait for the affiliate id and the navigation, not just the request.
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const values = readForm(event.currentTarget);
    if (!isValidEmail(values.email)) {
      setEmailError(copy.invalidEmail);
      emailInput.current?.focus();
      return;
    }
    setEmailError(null);
    setSubmitting(true);
    try {
      await createLead(buildLeadRequest(values));
    } catch (error) {
      setSubmitting(false);
      const serverMessage = error instanceof ApiError ? error.serverMessage : null;
      notify({ tone: 'error', title: copy.errorTitle, description: serverMessage ?? copy.errorFallback });
      return;
    }
    track({ name: 'Lead', params: { user_id: analyticsUserId(values.email), event_category: 'lead', event_label: 'landing_page' } });
    rememberVisitorEmail(values.email);
    await waitForTrackingId();
    goTo(checkoutPath(values));
  }

  return (
    <form className="card lead__form" noValidate onSubmit={handleSubmit} aria-labelledby="lead-heading" data-testid="lead-form">
      <div className="field">
        <label htmlFor="lead-name">{copy.nameLabel}</label>
        <input id="lead-name" name="name" type="text" autoComplete="name" />
      </div>
      <EmailField
        ref={emailInput}
        id={LEAD_EMAIL_FIELD_ID}
        label={copy.emailLabel}
        error={emailError}
        errorTestId="email-error"
        onChange={(event) => {
          if (emailError && isValidEmail(event.currentTarget.value.trim())) setEmailError(null);
        }}
      />
      <div className="field">
        <label htmlFor="lead-phone">{copy.phoneLabel}</label>
        <input id="lead-phone" name="phone" type="tel" autoComplete="tel" />
      </div>
      <LeadSummary />
      <button type="submit" className="button button--cta button--block" disabled={!hydrated || submitting} data-testid="lead-submit">
        {submitting ? copy.pending : copy.submit}
      </button>
      <p className="lead__footnote">{copy.footnote}</p>
    </form>
  );
}

export const leadFormIsland = defineIsland('lead-form', () => <LeadForm />);
