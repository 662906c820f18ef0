/**
 * Queues on the System page: per kind, jobs waiting, running, failed and stuck (running, but its worker stopped
 * reporting); then the newest failed or stuck jobs, each with Retry where its kind can retry it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { getQueues, QUEUES_KEY, retryJob, type TroubledJob } from './admin-health-api';
import { ADMIN_KEY } from './admin-api';

/** Counts follow while the page is open: a retried job leaves the list as a worker takes it. */
const REFRESH_MS = 10_000;

const kindText = (t: TFunction, kind: string) =>
  kind === 'offline' ? t('adminHealth.queues.offline') : kind === 'decompress' ? t('adminHealth.queues.decompress') : t('adminHealth.queues.transcode');

function JobRow({ job }: { job: TroubledJob }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryJob(job),
    onSuccess: () => {
      toast.success(t('adminHealth.queues.retried'));
      // The audit log gained an event too: the console's queries refresh together.
      void qc.invalidateQueries({ queryKey: ADMIN_KEY });
    },
    onError: (err) => void toast.error(errorMessage(err)),
  });
  const label = job.name || job.id.slice(0, 12);
  return (
    <li className="health-job" data-testid="health-job">
      <div className="health-job-head">
        <span className={job.state === 'failed' ? 'admin-badge off' : 'admin-badge'}>{job.state === 'failed' ? t('adminHealth.queues.failedOne') : t('adminHealth.queues.stuckOne')}</span>
        <span className="health-job-kind">{kindText(t, job.kind)}</span>
      </div>
      <div className="health-job-name">{label}</div>
      {job.message && <div className="health-job-message">{job.message}</div>}
      <div className="health-job-meta muted">
        {job.user_email || t('adminHealth.queues.noAccount')} · {formatTime(job.updated_time, i18n.language)}
      </div>
      {job.retryable ? (
        <button type="button" className="btn" disabled={retry.isPending || retry.isSuccess} onClick={() => retry.mutate()} aria-label={t('adminHealth.queues.retryNamed', { name: label })}>
          {t('adminHealth.queues.retry')}
        </button>
      ) : (
        <p className="muted health-job-note">{t('adminHealth.queues.noRetry')}</p>
      )}
    </li>
  );
}

export function SystemQueues() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: QUEUES_KEY, queryFn: ({ signal }) => getQueues(signal), refetchInterval: REFRESH_MS, meta: { quiet: true } });
  const num = (n: number) => n.toLocaleString(i18n.language);
  return (
    <section className="admin-card health-wide" aria-labelledby="health-queues-title" data-testid="health-queues">
      <h2 id="health-queues-title">{t('adminHealth.queues.title')}</h2>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {q.data && (
        <>
          <div className="health-scroll">
            <table className="health-counts">
              <thead>
                <tr>
                  <th>{t('adminHealth.queues.kind')}</th>
                  <th>{t('adminHealth.queues.waiting')}</th>
                  <th>{t('adminHealth.queues.running')}</th>
                  <th>{t('adminHealth.queues.failed')}</th>
                  <th>{t('adminHealth.queues.stuck')}</th>
                </tr>
              </thead>
              <tbody>
                {q.data.queues.map((c) => (
                  <tr key={c.kind} data-testid={`health-queue-${c.kind}`}>
                    <th scope="row">{kindText(t, c.kind)}</th>
                    <td>{num(c.waiting)}</td>
                    <td>{num(c.running)}</td>
                    <td className={c.failed ? 'admin-off' : ''}>{num(c.failed)}</td>
                    <td className={c.stuck ? 'admin-off' : ''}>{num(c.stuck)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 className="health-sub">{t('adminHealth.queues.troubled')}</h3>
          {q.data.jobs.length === 0 ? (
            <p className="muted">{t('adminHealth.queues.allWell')}</p>
          ) : (
            <ul className="health-jobs">
              {q.data.jobs.map((j) => (
                <JobRow key={`${j.kind}:${j.id}`} job={j} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
