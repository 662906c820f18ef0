/** Processes on the System page: each serve, worker or all process by its heartbeat, alive or gone. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { getProcesses, PROCESSES_KEY } from './admin-health-api';

/** Heartbeats come every 30 s; the list follows at that pace while the page is open. */
const REFRESH_MS = 30_000;

export function SystemProcesses() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: PROCESSES_KEY, queryFn: ({ signal }) => getProcesses(signal), refetchInterval: REFRESH_MS, meta: { quiet: true } });
  const roleText = (role: string) => (role === 'serve' ? t('adminHealth.processes.serve') : role === 'worker' ? t('adminHealth.processes.worker') : t('adminHealth.processes.all'));
  return (
    <section className="admin-card health-wide" aria-labelledby="health-processes-title" data-testid="health-processes">
      <h2 id="health-processes-title">{t('adminHealth.processes.title')}</h2>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {q.data && q.data.processes.length === 0 && <p className="muted">{t('adminHealth.processes.none')}</p>}
      {q.data && q.data.processes.length > 0 && (
        <table className="health-table">
          <thead>
            <tr>
              <th>{t('adminHealth.processes.role')}</th>
              <th>{t('adminHealth.processes.state')}</th>
              <th>{t('adminHealth.processes.host')}</th>
              <th>{t('adminHealth.processes.version')}</th>
              <th>{t('adminHealth.processes.started')}</th>
              <th>{t('adminHealth.processes.seen')}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.processes.map((p) => (
              <tr key={p.id} data-testid="health-process">
                <td data-label={t('adminHealth.processes.role')}>{roleText(p.role)}</td>
                <td data-label={t('adminHealth.processes.state')}>
                  <span className={p.alive ? 'admin-badge' : 'admin-badge off'}>{p.alive ? t('adminHealth.processes.alive') : t('adminHealth.processes.gone')}</span>
                </td>
                <td data-label={t('adminHealth.processes.host')} className="health-mono">
                  {p.host} · {t('adminHealth.processes.pid', { pid: p.pid })}
                </td>
                <td data-label={t('adminHealth.processes.version')}>{p.version || t('admin.system.unknown')}</td>
                <td data-label={t('adminHealth.processes.started')}>{formatTime(p.started_time, i18n.language)}</td>
                <td data-label={t('adminHealth.processes.seen')}>{formatTime(p.seen_time, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
