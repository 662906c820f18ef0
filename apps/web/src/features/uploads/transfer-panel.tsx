/** The transfer list: uploads in progress and completed, with pause, continue, retry, cancel and "show in folder". */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatSize } from '@haul/shared';
import { useSessionStore } from '../auth/session-store';
import { Icon } from '../layout/icon';
import { actionFor, COMPLETED, IN_PROGRESS, UPLOAD_STATUS as S, type UploadStatus } from './upload-status';
import { restoreUploads, useUploads, type UploadTask } from './upload-store';

/** The upload machinery loads on first use. */
const manager = () => import('./upload-manager');

type Tab = 'uploading' | 'completed';

function statusText(t: (k: string) => string, status: UploadStatus): string {
  if (COMPLETED.includes(status)) return t('uploads.transferred');
  if (status === S.FAILED) return t('uploads.fail');
  if (status === S.PAUSE) return t('uploads.paused');
  if (status === S.ANALYSIS) return t('uploads.analysing');
  if (status === S.PENDING) return t('uploads.waiting');
  return t('uploads.transferring');
}

function TaskRow({ task }: { task: UploadTask }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const action = actionFor(task.status);
  const run = async () => {
    if (action === 'view') return navigate(task.parentId ? `/all/${task.parentId}` : '/all');
    const m = await manager();
    if (action === 'pause') m.pause(task.taskId);
    else m.resume(task.taskId);
  };
  const label = { pause: t('uploads.pause'), start: t('uploads.continue'), retry: t('uploads.retry'), view: t('uploads.showInFolder') }[
    action
  ];
  return (
    <li className="transfer" aria-label={task.name}>
      <div className="transfer-main">
        <span className="fname" title={task.name}>
          {task.name}
        </span>
        <small className="muted">
          {formatSize(task.size, 1, i18n.language)} · <span data-status={task.status}>{statusText(t, task.status)}</span>
          {task.status === S.TRANSMISSION && task.speed > 0 && ` · ${formatSize(task.speed, 1, i18n.language)}/s`}
        </small>
        {task.errorText && <small className="form-error">{task.errorText}</small>}
        {!COMPLETED.includes(task.status) && (
          <div
            className="transfer-bar"
            role="progressbar"
            aria-label={task.name}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.floor(task.progress)}
          >
            <span style={{ width: `${task.progress}%` }} />
          </div>
        )}
      </div>
      <button className="icon-btn" onClick={() => void run()} aria-label={`${label}: ${task.name}`} title={label}>
        <Icon name={action === 'pause' ? 'pause' : action === 'view' ? 'folder' : action === 'retry' ? 'restore' : 'play'} size={18} />
      </button>
      {!COMPLETED.includes(task.status) && (
        <button
          className="icon-btn"
          onClick={() => void manager().then((m) => m.cancel(task.taskId))}
          aria-label={`${t('uploads.cancel')}: ${task.name}`}
          title={t('uploads.cancel')}
        >
          <Icon name="close" size={18} />
        </button>
      )}
    </li>
  );
}

export function TransferPanel() {
  const { t } = useTranslation();
  const userId = useSessionStore((s) => s.session?.userId);
  const { tasks, order, panelOpen, setPanelOpen } = useUploads();
  const [tab, setTab] = useState<Tab>('uploading');
  useEffect(() => {
    if (!userId) return;
    void restoreUploads(userId);
  }, [userId]);

  const list = order.map((id) => tasks[id]).filter((x): x is UploadTask => !!x && x.userId === userId);
  if (list.length === 0) return null;
  const uploading = list.filter((x) => IN_PROGRESS.includes(x.status));
  const completed = list.filter((x) => COMPLETED.includes(x.status));
  const shown = tab === 'uploading' ? uploading : completed;
  const total = uploading.reduce((n, x) => n + x.size, 0);
  const done = uploading.reduce((n, x) => n + (x.size * x.progress) / 100, 0);
  const summary = uploading.length
    ? t('uploads.summary', { count: uploading.length, percent: total ? Math.floor((done / total) * 100) : 0 })
    : t('uploads.allDone');

  return (
    <aside className={`transfer-panel${panelOpen ? ' open' : ''}`} aria-label={t('uploads.title')}>
      <button className="transfer-head" onClick={() => setPanelOpen(!panelOpen)} aria-expanded={panelOpen}>
        <Icon name="upload" size={18} />
        <span>{summary}</span>
        <Icon name="chevron" size={16} className={panelOpen ? 'rot90' : 'rot-90'} />
      </button>
      {panelOpen && (
        <>
          <div className="tabs" role="tablist">
            {(['uploading', 'completed'] as const).map((k) => (
              <button key={k} role="tab" aria-selected={tab === k} className={`tab${tab === k ? ' on' : ''}`} onClick={() => setTab(k)}>
                {t(`uploads.tab_${k}`)} ({k === 'uploading' ? uploading.length : completed.length})
              </button>
            ))}
            {tab === 'completed' && completed.length > 0 && (
              <button className="link" onClick={() => void manager().then((m) => m.clearCompleted())}>
                {t('uploads.clear')}
              </button>
            )}
          </div>
          <ul className="transfer-list">
            {shown.length === 0 && <li className="muted transfer-empty">{t('uploads.none')}</li>}
            {shown.map((task) => (
              <TaskRow key={task.taskId} task={task} />
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
