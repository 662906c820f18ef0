/**
 * System (/admin/system): the Haul version, where data lives, and the last backup (when, how large, whether it holds
 * every file), with the command that makes one; backups run on the server, not from the browser. Then the system's
 * health: storage, the background queues (with Retry), the processes alive, the configuration and usage per day.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { formatTime } from '../files/format-time';
import { getSystem, SYSTEM_KEY, type SystemStatus } from './admin-api';
import { sizeText } from './storage-size';
import { StatsChart } from './stats-chart';
import { SystemConfig } from './system-config';
import { SystemProcesses } from './system-processes';
import { SystemQueues } from './system-queues';
import { SystemStorage } from './system-storage';
import './system-health.css';

/** The command the operator runs on the server; not translated. */
const BACKUP_COMMAND = 'npm run haul-admin -- backup DIR';

function LastBackup({ backup }: { backup: NonNullable<SystemStatus['last_backup']> }) {
  const { t, i18n } = useTranslation();
  const size = (bytes: string) => sizeText(Number(bytes), i18n.language);
  return (
    <dl className="admin-facts">
      <dt>{t('admin.system.taken')}</dt>
      <dd>{formatTime(backup.taken_at, i18n.language)}</dd>
      <dt>{t('admin.system.size')}</dt>
      <dd>{size(backup.bytes)}</dd>
      <dt>{t('admin.system.databaseSize')}</dt>
      <dd>{size(backup.database_bytes)}</dd>
      <dt>{t('admin.system.files')}</dt>
      <dd>
        {backup.blob_store === 'local'
          ? t('admin.system.filesCopied', { n: Number(backup.blob_count).toLocaleString(i18n.language), size: size(backup.blob_bytes) })
          : t('admin.system.filesInBucket', { n: Number(backup.blob_count).toLocaleString(i18n.language) })}
      </dd>
      <dt>{t('admin.system.completeness')}</dt>
      <dd className={backup.complete ? '' : 'admin-off'} data-testid="backup-complete">
        {backup.complete ? t('admin.system.complete') : t('admin.system.incomplete')}
      </dd>
    </dl>
  );
}

export function AdminSystemPage() {
  const { t } = useTranslation();
  const system = useQuery({ queryKey: SYSTEM_KEY, queryFn: ({ signal }) => getSystem(signal), meta: { quiet: true } });
  const s = system.data;
  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('admin.tabs.system')}</h1>
      </div>
      {system.isPending && <p className="muted">{t('common.loading')}</p>}
      {system.isError && <FormError error={errorMessage(system.error)} />}
      <div className="admin-user-grid">
        {s && (
          <section className="admin-card" aria-labelledby="admin-backup-title">
            <h2 id="admin-backup-title">{t('admin.system.lastBackup')}</h2>
            {s.last_backup ? <LastBackup backup={s.last_backup} /> : <p className="muted">{t('admin.system.noBackup')}</p>}
            <p className="admin-note">{t('admin.system.howToBackUp')}</p>
            <pre className="admin-command">
              <code>{BACKUP_COMMAND}</code>
            </pre>
            <p className="admin-note muted">{t('admin.system.backupNote')}</p>
          </section>
        )}
        {s && (
          <section className="admin-card" aria-labelledby="admin-install-title">
            <h2 id="admin-install-title">{t('admin.system.install')}</h2>
            <dl className="admin-facts">
              <dt>{t('admin.system.version')}</dt>
              <dd>{s.version || t('admin.system.unknown')}</dd>
              <dt>{t('admin.system.database')}</dt>
              <dd>{s.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}</dd>
              <dt>{t('admin.system.storage')}</dt>
              <dd>{s.blob_store === 's3' ? t('admin.system.bucket') : t('admin.system.disk')}</dd>
            </dl>
          </section>
        )}
        <SystemStorage />
        <SystemQueues />
        <SystemProcesses />
        <StatsChart />
        <SystemConfig />
      </div>
    </section>
  );
}
