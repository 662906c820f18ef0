/** One cloud download in the transfer list: phase, progress, speed and time left, and the action its phase offers. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatSize, PHASE } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { useDialog } from '../../app/dialogs/dialog-store';
import { runChange } from '../files/file-mutations';
import type { IconName } from '../../components/icon';
import { TransferItem } from '../uploads/transfer-item';
import { DECOMPRESS, etaSeconds, removeCloudTasks, retryCloudTask, setCloudPhase } from './offline-api';
import { followCloudTasks } from './cloud-task-poll';
import { duration, failureWords, PeersWait, showTaskLimit, taskLimit } from './cloud-task-words';

type Action = 'pause' | 'start' | 'retry' | 'view';

/** Seed 000 §4: waiting and running offer pause, paused offers start, failed offers retry, complete offers "view in folder". */
export function cloudActionFor(phase: string): Action {
  if (phase === PHASE.PAUSED) return 'start';
  if (phase === PHASE.ERROR) return 'retry';
  if (phase === PHASE.COMPLETE) return 'view';
  return 'pause';
}

const ICONS: Record<Action, IconName> = { pause: 'pause', start: 'play', retry: 'restore', view: 'folder' };

export function CloudTaskRow({ task }: { task: DriveTask }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const openDialog = useDialog((s) => s.open);
  const action = cloudActionFor(task.phase);
  // An unpacking task cannot pause; a failed one is tried again from its archive's page (it may need the password).
  const unpacking = task.type === DECOMPRESS;
  const done = task.phase === PHASE.COMPLETE;
  const size = Number(task.file_size) || Number(task.params.size) || 0;
  const speed = Number(task.params.speed) || 0;
  const eta = task.phase === PHASE.RUNNING ? etaSeconds(task) : null;
  // A torrent before its first byte is looking for peers, not transferring.
  const peers = task.phase === PHASE.RUNNING && task.params.stage === 'peers';
  // An unpack says so: its row carries the archive's name, as the archive's own download row does.
  const status = peers
    ? t('cloud.peers')
    : unpacking && task.phase !== PHASE.ERROR
    ? { [PHASE.COMPLETE]: t('archives.rowDone'), [PHASE.PENDING]: t('archives.rowWaiting') }[task.phase] ?? t('archives.rowRunning')
    : {
      [PHASE.COMPLETE]: t('uploads.transferred'),
      [PHASE.ERROR]: t('uploads.fail'),
      [PHASE.PAUSED]: t('uploads.paused'),
      [PHASE.PENDING]: t('uploads.waiting'),
    }[task.phase] ?? t('uploads.transferring');

  // A torrent's files land one by one: those already in the drive can be opened before the rest arrive.
  const landed = (task.params.landed ?? '').split(',').filter(Boolean).length;
  const playable = !done && task.params.playable === '1' && task.phase !== PHASE.ERROR;
  const showFolder = () => {
    const parent = task.reference_resource?.parent_id ?? task.params.parent_id ?? '';
    void navigate(parent ? `/all/${parent}` : '/all', { state: { highlight: task.file_id } });
  };
  const run = () => {
    if (action === 'view') return showFolder();
    if (unpacking) return navigate(`/decompression/${task.params.file_id ?? ''}`);
    const work = {
      pause: () => setCloudPhase(task.id, PHASE.PAUSED),
      start: () => setCloudPhase(task.id, PHASE.PENDING),
      retry: () => retryCloudTask(task.id),
    }[action];
    void runChange(work).then(followCloudTasks);
  };
  // Stopped by a limit while it ran: the dialog explains it, and the task is retried by itself after an upgrade.
  const limit = taskLimit(task);
  const showLimit = () => showTaskLimit(task);
  const remove = () =>
    // Stopping an unfinished download loses nothing of the drive's; removing a finished one asks about its file.
    done ? openDialog({ type: 'remove-cloud-tasks', tasks: [task] }) : void runChange(() => removeCloudTasks([task.id], false)).then(followCloudTasks);
  const label = { pause: t('uploads.pause'), start: t('uploads.continue'), retry: t('uploads.retry'), view: t('uploads.showInFolder') }[
    action
  ];

  return (
    <TransferItem
      name={task.name}
      title={task.params.url}
      meta={
        <>
          {size > 0 && `${formatSize(size, 1, i18n.language)} · `}
          <span data-status={task.phase}>{status}</span>
          {task.phase === PHASE.RUNNING && speed > 0 && ` · ${formatSize(speed, 1, i18n.language)}/s`}
          {eta !== null && ` · ${t('cloud.left', { time: duration(eta) })}`}
          {peers && <PeersWait task={task} />}
          {!done && landed > 0 && ` · ${t('cloud.landed', { count: landed, total: Number(task.params.file_count) || landed })}`}
        </>
      }
      error={task.phase === PHASE.ERROR ? failureWords(task) : undefined}
      details={task.phase === PHASE.ERROR ? task.params.detail : undefined}
      // A failed download shows why, not how far it had come.
      progress={done || task.phase === PHASE.ERROR ? null : task.progress}
      buttons={[
        ...(limit ? [{ label: t('limits.upgrade'), icon: 'star' as IconName, onClick: showLimit }] : []),
        // A torrent still downloading: its songs and videos play from what has arrived.
        ...(playable ? [{ label: t('cloud.play'), icon: 'play' as IconName, onClick: () => openDialog({ type: 'torrent-player', task }) }] : []),
        ...(!done && landed > 0 && task.file_id ? [{ label: t('uploads.showInFolder'), icon: ICONS.view, onClick: showFolder }] : []),
        ...(unpacking && action === 'pause' ? [] : [{ label, icon: ICONS[action], onClick: run }]),
        // A failed download has nothing left to cancel: it is removed from the list.
        { label: done || task.phase === PHASE.ERROR ? t('cloud.remove') : t('cloud.cancel'), icon: 'close', onClick: remove },
      ]}
    />
  );
}
