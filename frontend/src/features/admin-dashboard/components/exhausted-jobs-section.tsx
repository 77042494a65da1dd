import { useQueryClient } from '@tanstack/react-query';
import { notify } from '@/components/toast/notify';
import { adminDashboard } from '@/content/admin';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useExhaustedJobs } from '../api/get-exhausted-jobs';
import { useRetryExhaustedJob } from '../api/retry-exhausted-job';
import { formatTime } from '../format';
import { TablePanel } from './table-panel';

const copy = adminDashboard.exhaustedJobs;

/** Jobs that gave up after their retry horizon, each with its reason and a one-click (audited) retry. */
export function ExhaustedJobsSection() {
  const queryClient = useQueryClient();
  const jobs = useExhaustedJobs();
  const retry = useRetryExhaustedJob();
  const data = jobs.data;

  const retryJob = (id: string) =>
    retry.mutate(id, {
      onSuccess: () => notify({ tone: 'success', title: copy.retried }),
      onError: (error) => {
        if (forgetSessionOn401(queryClient, error)) {
          notify({ tone: 'destructive', title: copy.sessionEnded, description: copy.sessionEndedDescription });
          return;
        }
        notify({
          tone: 'destructive',
          title: copy.retryFailed,
          description: (error instanceof ApiError && error.serverMessage) || copy.failedFallback,
        });
      },
    });

  return (
    <TablePanel
      id="dash-exhausted"
      testId="exhausted-jobs"
      copy={copy}
      query={jobs}
      columns={[copy.columns.job, copy.columns.reason, copy.columns.owed, copy.columns.gaveUp, copy.columns.action]}
      rows={data?.items.map((job) => (
        <tr key={job.id} data-testid="exhausted-job">
          <th scope="row">
            {job.job}
            <br />
            <span className="dash-note dash-wrap">{job.id}</span>
          </th>
          <td className="dash-wrap">{job.reason ?? copy.noReason}</td>
          <td>{formatTime(job.owedAt)}</td>
          <td>{formatTime(job.gaveUpAt)}</td>
          <td>
            <button
              type="button"
              className="admin-button"
              aria-label={copy.retryJobLabel(job.job, job.id)}
              disabled={retry.isPending}
              onClick={() => retryJob(job.id)}
            >
              {retry.isPending && retry.variables === job.id ? copy.retrying : copy.retryJob}
            </button>
          </td>
        </tr>
      ))}
      footer={data && data.total > data.items.length ? <p className="dash-note">{copy.shownOf(data.items.length, data.total)}</p> : null}
    />
  );
}
