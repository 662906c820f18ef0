/**
 * The transfer list (seed 000 §2, §4): cloud downloads, uploads in progress, and both kinds once completed, with the
 * action each status offers (pause, continue, retry, show in folder) and cancel or remove.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatSize, PHASE } from '@haul/shared/plain';
import { useSessionStore } from '../auth/session-store';
import { runChange } from '../files/file-mutations';
import { Icon } from '../../components/icon';
import { useCloudTasks } from '../offline/cloud-tasks';
import { CloudTaskRow } from '../offline/cloud-task-row';
import { clearFinishedCloudTasks } from '../offline/offline-api';
import { followCloudTasks } from '../offline/cloud-task-poll';
import { TransferItem } from './transfer-item';
import { actionFor, COMPLETED, IN_PROGRESS, UPLOAD_STATUS as S, type UploadStatus } from './upload-status';
import { restoreUploads, useUploads, type TransferTab, type UploadTask } from './upload-store';
import { ParallelUploads } from './parallel-uploads';

/** The upload machinery loads on first use. */
const manager = () => import('./upload-manager');

function statusText(t: (k: string) => string, status: UploadStatus, offline?: boolean): string {
  if (COMPLETED.includes(status)) return t('uploads.transferred');
  if (offline && status === S.PAUSE) return t('uploads.offlineWaiting');
  if (status === S.FAILED) return t('uploads.fail');
  if (status === S.PAUSE) return t('uploads.paused');
  if (status === S.ANALYSIS) return t('uploads.analysing');
  if (status === S.PENDING) return t('uploads.waiting');
  return t('uploads.transferring');
}

function UploadRow({ task }: { task: UploadTask }) {
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
  const done = COMPLETED.includes(task.status);
  return (
    <TransferItem
      name={task.name}
      meta={
        <>
          {formatSize(task.size, 1, i18n.language)} · <span data-status={task.status}>{statusText(t, task.status, task.offline)}</span>
          {task.status === S.TRANSMISSION && task.speed > 0 && ` · ${formatSize(task.speed, 1, i18n.language)}/s`}
        </>
      }
      error={task.errorText || undefined}
      // A failed upload shows its failure, not the progress it had when it stopped.
      progress={done || task.status === S.FAILED ? null : task.progress}
      buttons={[
        {
          label,
          icon: action === 'pause' ? 'pause' : action === 'view' ? 'folder' : action === 'retry' ? 'restore' : 'play',
          onClick: () => void run(),
        },
        ...(done
          ? []
          : [{ label: t('uploads.cancel'), icon: 'close' as const, onClick: () => void manager().then((m) => m.cancel(task.taskId)) }]),
      ]}
    />
  );
}

export function TransferPanel() {
  const { t } = useTranslation();
  const userId = useSessionStore((s) => s.session?.userId);
  const { tasks, order, panelOpen, setPanelOpen, tab, setTab } = useUploads();
  const cloud = useCloudTasks(userId);
  useEffect(() => {
    if (!userId) return;
    void restoreUploads(userId);
  }, [userId]);

  const list = order.map((id) => tasks[id]).filter((x): x is UploadTask => !!x && x.userId === userId);
  if (list.length === 0 && cloud.length === 0) return null;
  const uploading = list.filter((x) => IN_PROGRESS.includes(x.status));
  const completed = list.filter((x) => COMPLETED.includes(x.status));
  const cloudOpen = cloud.filter((x) => x.phase !== PHASE.COMPLETE);
  const cloudDone = cloud.filter((x) => x.phase === PHASE.COMPLETE);
  const counts: Record<TransferTab, number> = {
    cloud: cloudOpen.length,
    uploading: uploading.length,
    completed: completed.length + cloudDone.length,
  };
  const total = uploading.reduce((n, x) => n + x.size, 0);
  const done = uploading.reduce((n, x) => n + (x.size * x.progress) / 100, 0);
  const fetching = cloudOpen.filter((x) => x.phase === PHASE.PENDING || x.phase === PHASE.RUNNING).length;
  const failed = cloudOpen.filter((x) => x.phase === PHASE.ERROR).length + uploading.filter((x) => x.status === S.FAILED).length;
  const summary = uploading.length
    ? t('uploads.summary', { count: uploading.length, percent: total ? Math.floor((done / total) * 100) : 0 })
    : fetching
      ? t('cloud.summary', { count: fetching })
      : failed
        ? t('uploads.failedSummary', { count: failed })
        : t('uploads.allDone');
  // The list opens on a tab that has something, not on an empty one.
  const shown: TransferTab = counts[tab] > 0 ? tab : ((['cloud', 'uploading', 'completed'] as const).find((k) => counts[k] > 0) ?? tab);
  const clearCompleted = async () => {
    if (completed.length) await manager().then((m) => m.clearCompleted());
    if (cloudDone.length) await runChange(clearFinishedCloudTasks).then(followCloudTasks);
  };

  return (
    <aside className={`transfer-panel${panelOpen ? ' open' : ''}`} aria-label={t('uploads.title')}>
      <button className={`transfer-head${failed ? ' has-failed' : ''}`} onClick={() => setPanelOpen(!panelOpen)} aria-expanded={panelOpen}>
        <Icon name={failed && !uploading.length && !fetching ? 'alert' : uploading.length || !fetching ? 'upload' : 'download'} size={18} />
        <span>{summary}</span>
        {failed > 0 && (uploading.length > 0 || fetching > 0) && <span className="failed-count">{t('uploads.failedCount', { count: failed })}</span>}
        <Icon name="chevron" size={16} className={panelOpen ? 'rot90' : 'rot-90'} />
      </button>
      {panelOpen && (
        <>
          <div className="tabs" role="tablist">
            {(['cloud', 'uploading', 'completed'] as const).map((k) => (
              <button key={k} role="tab" aria-selected={shown === k} className={`tab${shown === k ? ' on' : ''}`} onClick={() => setTab(k)}>
                {t(`uploads.tab_${k}`)} ({counts[k]})
              </button>
            ))}
          </div>
          <div className="transfer-tools">
            {shown === 'uploading' && <ParallelUploads onChange={() => void manager().then((m) => m.kick())} />}
            {shown === 'completed' && counts.completed > 0 && (
              <button className="link" onClick={() => void clearCompleted()}>
                {t('uploads.clear')}
              </button>
            )}
          </div>
          <ul className="transfer-list">
            {counts[shown] === 0 && <li className="muted transfer-empty">{t('uploads.none')}</li>}
            {shown === 'cloud' && cloudOpen.map((x) => <CloudTaskRow key={x.id} task={x} />)}
            {shown === 'uploading' && uploading.map((x) => <UploadRow key={x.taskId} task={x} />)}
            {shown === 'completed' && (
              <>
                {cloudDone.map((x) => (
                  <CloudTaskRow key={x.id} task={x} />
                ))}
                {completed.map((x) => (
                  <UploadRow key={x.taskId} task={x} />
                ))}
              </>
            )}
          </ul>
        </>
      )}
    </aside>
  );
}
