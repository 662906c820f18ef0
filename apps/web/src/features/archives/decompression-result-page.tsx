/**
 * /decompression/:fileId/result?task=… (or under /web-decompression): follows the unpacking task (every second while it runs; it goes on with the
 * tab closed), then shows what landed and opens the folder.
 */
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatSize, PHASE } from '@haul/shared/plain';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { track } from '../../lib/stats';
import { settleFileChanges } from '../files/settle-changes';
import { isFolder, listFiles, LIVE_FILTERS } from '../files/files-api';
import { Icon } from '../../components/icon';
import { decompressProgress } from './archives-api';
import { useArchiveBase } from './archive-base';
import './archives.css';

const POLL_MS = 1000;
const ended = (phase?: string) => phase === PHASE.COMPLETE || phase === PHASE.ERROR;

export function DecompressionResultPage() {
  const { t, i18n } = useTranslation();
  const { fileId = '' } = useParams();
  const base = useArchiveBase();
  const [params] = useSearchParams();
  const taskId = params.get('task') ?? '';
  const progress = useQuery({
    queryKey: ['decompress-progress', taskId],
    queryFn: ({ signal }) => decompressProgress(taskId, signal),
    enabled: !!taskId,
    refetchInterval: (q) => (ended(q.state.data?.task.phase) ? false : POLL_MS),
  });
  const task = progress.data?.task;
  const folderId = task?.phase === PHASE.COMPLETE ? task.file_id : null;
  const landed = useQuery({
    queryKey: ['decompress-landed', folderId],
    queryFn: () => listFiles({ parentId: folderId ?? '', filters: LIVE_FILTERS, limit: 200 }),
    enabled: folderId !== null,
  });
  // The new files reach the local database (and so the file list) as soon as they exist.
  useEffect(() => {
    if (folderId !== null) void settleFileChanges();
  }, [folderId]);
  // Counted once, when this page sees the task end (seed 001's archive_unzip events).
  const reported = useRef(false);
  useEffect(() => {
    if (!ended(task?.phase) || reported.current) return;
    reported.current = true;
    track(task!.phase === PHASE.COMPLETE ? 'archive_unzip_success' : 'archive_unzip_fail');
  }, [task]);

  return (
    <section className="page archive-page">
      <div className="toolbar">
        <h1 className="crumb current">{task?.name ?? t('archives.title')}</h1>
      </div>
      {progress.isError && <FormError error={errorMessage(progress.error)} />}
      {task && !ended(task.phase) && (
        <div aria-live="polite">
          <p>{t('archives.running', { done: progress.data!.done_entries, total: progress.data!.total_entries })}</p>
          <progress className="archive-progress" max={100} value={task.progress} />
          <p className="muted">{t('archives.goesOn')}</p>
        </div>
      )}
      {task?.phase === PHASE.ERROR && (
        <>
          <FormError error={task.message || t('archives.failed')} />
          <Link className="btn" to={`${base}/${fileId}`}>
            {t('archives.tryAgain')}
          </Link>
        </>
      )}
      {task?.phase === PHASE.COMPLETE && (
        <div aria-live="polite">
          <p role="status">
            {t('archives.done', { count: progress.data!.total_entries, size: formatSize(Number(progress.data!.done_size), 1, i18n.language) })}
          </p>
          <ul className="archive-landed">
            {(landed.data?.files ?? []).map((f) => (
              <li key={f.id}>
                <Icon name={isFolder(f) ? 'folder' : 'file'} size={16} /> {f.name}
              </li>
            ))}
          </ul>
          <Link className="btn primary" to={task.file_id ? `/all/${task.file_id}` : '/all'}>
            {t('archives.openFolder')}
          </Link>
        </div>
      )}
    </section>
  );
}
