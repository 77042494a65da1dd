import type { PersonData } from '@contracts/admin';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { notify } from '@/components/toast/notify';
import { adminDashboard } from '@/content/admin';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useDownload } from '../api/download-export';
import { useErasePerson } from '../api/erase-person';
import { useFindPerson } from '../api/get-person';

const copy = adminDashboard.person;

function isEmpty(data: PersonData): boolean {
  return !data.lead && !data.invitation && data.orders.length === 0 && !data.emailSuppression;
}

/** A toast for a request that failed, or for the session it found ended. */
function useFailureToast() {
  const queryClient = useQueryClient();
  return (title: string) => (error: unknown) => {
    if (forgetSessionOn401(queryClient, error)) {
      notify({ tone: 'destructive', title: copy.sessionEnded, description: copy.sessionEndedDescription });
      return;
    }
    notify({ tone: 'destructive', title, description: (error instanceof ApiError && error.serverMessage) || copy.failedFallback });
  };
}

/** Counts of what is held about the address. */
function PersonSummary({ data }: { data: PersonData }) {
  return (
    <dl className="dash-pairs">
      <dt>{copy.summary.lead}</dt>
      <dd>{data.lead ? copy.yes : copy.no}</dd>
      <dt>{copy.summary.submissions}</dt>
      <dd>{data.leadSubmissions.length}</dd>
      <dt>{copy.summary.invitation}</dt>
      <dd>{data.invitation ? copy.yes : copy.no}</dd>
      <dt>{copy.summary.invitationSubmissions}</dt>
      <dd>{data.invitationSubmissions.length}</dd>
      <dt>{copy.summary.tokens}</dt>
      <dd>{data.invitationTokens.length}</dd>
      <dt>{copy.summary.orders}</dt>
      <dd>{data.orders.length}</dd>
      <dt>{copy.summary.sideEffects}</dt>
      <dd>{data.sideEffects.length}</dd>
      <dt>{copy.summary.unsubscribed}</dt>
      <dd>{data.emailSuppression ? copy.yes : copy.no}</dd>
    </dl>
  );
}

interface PersonRecordProps {
  data: PersonData;
  download: ReturnType<typeof useDownload>;
  erase: ReturnType<typeof useErasePerson>;
  failed: ReturnType<typeof useFailureToast>;
  onErased: () => void;
}

/**
 * What is held about the address found, with its export and its erasure (asked to confirm first).
 * A new search or an erasure ends it, and with it any confirmation under way; the requests are
 * the section's, so one still running ends (and fails) as it would have.
 */
function PersonRecord({ data, download, erase, failed, onErased }: PersonRecordProps) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const confirmErase = () => {
    erase.mutate(
      { email: data.email },
      {
        onSuccess: () => {
          setConfirming(false);
          onErased();
        },
        onError: failed(copy.eraseFailed),
      },
    );
  };

  return (
    <div className="admin-card" data-testid="person-result">
      <PersonSummary data={data} />
      <div className="dash-toolbar">
        <button
          type="button"
          className="admin-button"
          disabled={download.isPending}
          onClick={() =>
            download.mutate({ path: '/api/admin/people/export', params: { email: data.email } }, { onError: failed(copy.exportFailed) })
          }
        >
          {download.isPending ? copy.exporting : copy.exportJson}
        </button>
        {!confirming ? (
          <button type="button" className="admin-button admin-button--danger" onClick={() => setConfirming(true)}>
            {copy.erase}
          </button>
        ) : null}
      </div>
      {confirming ? (
        <div className="dash-confirm" role="group" aria-labelledby="dash-erase-question">
          <p id="dash-erase-question">{copy.confirmErase}</p>
          <button
            ref={confirmButton}
            type="button"
            className="admin-button admin-button--danger"
            disabled={erase.isPending}
            onClick={confirmErase}
          >
            {erase.isPending ? copy.erasing : copy.confirmEraseButton}
          </button>
          <button type="button" className="admin-button" disabled={erase.isPending} onClick={() => setConfirming(false)}>
            {copy.cancel}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Find, download or erase everything held about one e-mail address. */
export function PersonSection() {
  const [email, setEmail] = useState('');
  const [erasedNote, setErasedNote] = useState(false);
  const find = useFindPerson();
  const download = useDownload();
  const erase = useErasePerson();
  const failed = useFailureToast();
  const data = find.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErasedNote(false);
    find.mutate(email.trim(), { onError: failed(copy.findFailed) });
  };

  return (
    <section className="dash-section" aria-labelledby="dash-person">
      <h2 id="dash-person">{copy.heading}</h2>
      <p>{copy.intro}</p>
      <form className="dash-search" onSubmit={submit}>
        <div className="admin-field">
          <label htmlFor="dash-person-email">{copy.emailLabel}</label>
          <input
            id="dash-person-email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <button type="submit" className="admin-button" disabled={find.isPending}>
          {find.isPending ? copy.finding : copy.find}
        </button>
      </form>
      <div aria-live="polite">
        {erasedNote ? (
          <p className="dash-state" role="status">
            {copy.erased}
          </p>
        ) : null}
        {data && isEmpty(data) ? <p className="dash-state">{copy.nothingHeld}</p> : null}
        {data && !isEmpty(data) ? (
          <PersonRecord
            data={data}
            download={download}
            erase={erase}
            failed={failed}
            onErased={() => {
              // The section's own status line announces it; a toast as well would say it twice.
              setErasedNote(true);
              find.reset();
            }}
          />
        ) : null}
      </div>
    </section>
  );
}
