import { useQueryClient } from '@tanstack/react-query';
import { notify } from '@/components/toast/notify';
import { adminDashboard } from '@/content/admin';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useExhaustedJobs } from '../api/get-exhausted-jobs';
import { useRetryExhaustedJob } from '../api/retry-exhausted-job';
import { formatTime } from '../format';
import { LoadState } from './load-state';

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
    <section className="dash-section" aria-labelledby="dash-exhausted" data-testid="exhausted-jobs">
      <h2 id="dash-exhausted">{copy.heading}</h2>
      <p>{copy.intro}</p>
      <div aria-busy={jobs.isFetching}>
        <LoadState
          pending={jobs.isPending}
          error={jobs.isError}
          empty={data?.items.length === 0}
          loadingText={copy.loading}
          errorText={copy.loadFailed}
          emptyText={copy.empty}
          retryText={copy.retry}
          onRetry={() => void jobs.refetch()}
        >
          {data ? (
            <>
              <div className="dash-table-wrap">
                <table className="dash-table">
                  <caption className="visually-hidden">{copy.heading}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{copy.columns.job}</th>
                      <th scope="col">{copy.columns.reason}</th>
                      <th scope="col">{copy.columns.owed}</th>
                      <th scope="col">{copy.columns.gaveUp}</th>
                      <th scope="col">{copy.columns.action}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((job) => (
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
                  </tbody>
                </table>
              </div>
              {data.total > data.items.length ? <p className="dash-note">{copy.shownOf(data.items.length, data.total)}</p> : null}
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
