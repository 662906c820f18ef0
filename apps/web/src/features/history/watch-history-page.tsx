/**
 * Watch history: the videos and songs played, newest first (50 a page), each with how far it was played. Opening one
 * plays it among the others (scene home_play_history); entries can be removed one by one or all at once.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, mediaTypeOf } from '@haul/shared/plain';
import type { DriveEvent, DriveFile } from '@haul/shared';
import { EndSentinel } from '../../components/end-sentinel';
import { haul } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { useDialog } from '../../app/dialogs/dialog-store';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { iconFor } from '../files/file-item';
import { runChange } from '../files/file-mutations';
import { refreshQueries } from '../files/settle-changes';
import { formatTime } from '../files/format-time';
import { Icon } from '../../components/icon';
import { formatClock } from '../viewer/playback-rules';
import { openInViewer } from '../viewer/viewer-store';
import '../shares/shares.css';

const PLAY_FILTER = JSON.stringify({ type: { eq: 'TYPE_PLAY' } });

const listPlays = (pageToken: string, signal?: AbortSignal) =>
  haul.call('listEvents', {
    query: { filters: PLAY_FILTER, limit: LIMITS.playHistoryDefault, page_token: pageToken || undefined, thumbnail_size: 'SIZE_MEDIUM' },
    signal,
  });

/** How far a play got, in percent (0 when unknown). */
export function playedPercent(e: DriveEvent): number {
  const d = Number(e.params.play_duration);
  const s = Number(e.params.play_seconds);
  return d > 0 && s >= 0 ? Math.min(100, (s / d) * 100) : 0;
}

/**
 * A played file's picture: a video's frame; a song's icon, since most songs carry no cover art and the listing cannot
 * tell which do (asking would answer 404 for the rest); the kind's icon too for a picture that fails to load.
 */
function HistoryThumb({ file }: { file: DriveFile | null | undefined }) {
  const [failed, setFailed] = useState(false);
  const picture = file?.thumbnail_link && mediaTypeOf(file.name, file.mime_type) !== 'audio' && !failed;
  return (
    <span className="history-thumb">
      {picture ? (
        <img src={file.thumbnail_link} alt="" loading="lazy" onError={() => setFailed(true)} />
      ) : (
        <Icon name={file ? iconFor(file) : 'video'} size={28} />
      )}
    </span>
  );
}

export function WatchHistoryPage() {
  const { t, i18n } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const q = useInfiniteQuery({
    queryKey: ['history'],
    queryFn: ({ pageParam, signal }) => listPlays(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
  });
  // Files since deleted have no reference_resource: they stay listed (to be removed) but cannot play.
  const events = useMemo(() => q.data?.pages.flatMap((p) => p.events), [q.data]);
  const playable = useMemo(
    () => (events ?? []).flatMap((e) => (e.reference_resource && !e.reference_resource.trashed ? [e.reference_resource] : [])),
    [events],
  );
  const remove = (ids: string[]) =>
    runChange(() => haul.call('deleteEvents', { body: { ids } }), t('history.removed', { count: ids.length })).then(() => {
      setPicked(new Set());
      return refreshQueries(['history']);
    });
  const clear = () =>
    openDialog({
      type: 'confirm',
      title: t('history.clearTitle'),
      body: t('history.clearBody'),
      confirmLabel: t('history.clear'),
      danger: true,
      onConfirm: () =>
        runChange(() => haul.call('clearEvents', { body: { types: ['TYPE_PLAY'] } })).then(() => refreshQueries(['history'])),
    });

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('nav.watchHistory')}</h1>
        <div className="toolbar-end">
          {picked.size > 0 && (
            <button className="btn" onClick={() => void remove([...picked])}>
              {t('history.removeCount', { count: picked.size })}
            </button>
          )}
          <button className="btn danger" onClick={clear} disabled={!events?.length}>
            {t('history.clear')}
          </button>
        </div>
      </div>
      {q.error && !events?.length ? (
        <EmptyState icon="history" title={t('files.loadFailed')} hint={errorMessage(q.error)} />
      ) : !events ? (
        <Skeleton />
      ) : events.length === 0 ? (
        <EmptyState icon="history" title={t('history.empty')} hint={t('history.emptyHint')} />
      ) : (
        <ul className="history-list" aria-label={t('nav.watchHistory')}>
          {events.map((e) => {
            const f = e.reference_resource;
            const percent = playedPercent(e);
            return (
              <li key={e.id} aria-label={e.file_name}>
                <input
                  type="checkbox"
                  aria-label={e.file_name}
                  checked={picked.has(e.id)}
                  onChange={() =>
                    setPicked((prev) => {
                      const next = new Set(prev);
                      if (!next.delete(e.id)) next.add(e.id);
                      return next;
                    })
                  }
                />
                <HistoryThumb file={f} />
                <span className="history-main">
                  <button
                    className="link history-name"
                    disabled={!f || f.trashed}
                    onClick={() => f && openInViewer(playable, f, 'home_play_history')}
                  >
                    {e.file_name}
                  </button>
                  <span
                    className="history-progress"
                    role="progressbar"
                    aria-label={t('history.played')}
                    aria-valuenow={Math.round(percent)}
                    aria-valuemin={0}
                    aria-valuemax={100}
                  >
                    <span style={{ width: `${percent}%` }} />
                  </span>
                  <small className="muted">
                    {t('history.playedTo', {
                      time: formatClock(Number(e.params.play_seconds) || 0),
                      total: formatClock(Number(e.params.play_duration) || 0),
                    })}{' '}
                    · {formatTime(e.updated_time, i18n.language)}
                    {!f && ` · ${t('history.gone')}`}
                  </small>
                </span>
                <button
                  className="icon-btn"
                  aria-label={t('history.removeOf', { name: e.file_name })}
                  title={t('history.removeOf', { name: e.file_name })}
                  onClick={() => void remove([e.id])}
                >
                  <Icon name="close" />
                </button>
              </li>
            );
          })}
          <EndSentinel onVisible={() => q.hasNextPage && !q.isFetchingNextPage && void q.fetchNextPage()} />
        </ul>
      )}
    </section>
  );
}
