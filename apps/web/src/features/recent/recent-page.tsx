/**
 * Recent: files from the events feed, newest first. Polled on entry as the seeds do: again after 10 s, then twice
 * more 5 s apart while the screen stays open (TanStack Query keeps only the newest answer). Events since the last
 * visit are marked "New" for this visit (recent-events.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { matchesSearch } from '@haul/shared/plain';
import type { DriveEvent, DriveFile } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import type { FileActivity } from '../files/file-item';
import { FileView } from '../files/file-view';
import { SelectionBar } from '../files/selection-bar';
import { pickSelected, useSelection } from '../files/selection-store';
import { SearchFilters } from '../search/search-filters';
import { readSearch } from '../search/search-state';
import { useSessionStore } from '../auth/session-store';
import { listRecentEvents, newEvents, readMark, RECENT_KEY, writeMark } from './recent-events';

export const RECENT_POLL_MS = [10_000, 5_000, 5_000];

/**
 * The files of Recent, one entry per file, the newest event first (files gone since are left out), and for each its
 * newest event: what the row says happened (viewed, downloaded…).
 */
export function recentActivity(events: DriveEvent[], fresh: ReadonlySet<string> = new Set()): { files: DriveFile[]; activity: Map<string, FileActivity> } {
  const activity = new Map<string, FileActivity>();
  const files: DriveFile[] = [];
  for (const e of events) {
    const f = e.reference_resource;
    if (!f || f.trashed || activity.has(f.id)) continue;
    activity.set(f.id, { type: e.type, time: e.updated_time, fresh: fresh.has(e.id) });
    files.push(f);
  }
  return { files, activity };
}

export function RecentPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const search = readSearch(params);
  const selected = useSelection((s) => s.selected);
  const userId = useSessionStore((st) => st.session?.userId ?? '');
  const q = useQuery({ queryKey: RECENT_KEY, queryFn: ({ signal }) => listRecentEvents(signal) });
  // What is new is decided against the mark as it was when the screen opened, and stays marked for this visit.
  const [mark] = useState(() => readMark(userId));
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!q.data || !userId) return;
    const arrived = newEvents(q.data.events, mark);
    if (arrived.length) setFresh((was) => new Set([...was, ...arrived.map((e) => e.id)]));
    writeMark(userId, q.data.events);
  }, [q.data, userId, mark]);
  const { refetch } = q;
  useEffect(() => {
    let elapsed = 0;
    const timers = RECENT_POLL_MS.map((ms) => setTimeout(() => void refetch(), (elapsed += ms)));
    return () => timers.forEach(clearTimeout);
  }, [refetch]);
  const recent = useMemo(() => (q.data ? recentActivity(q.data.events, fresh) : undefined), [q.data, fresh]);
  // A search here filters Recent itself (seed 000 §2 lists recent among the searchable views).
  const files = useMemo(() => (recent && search ? recent.files.filter((f) => matchesSearch(f, search)) : recent?.files), [recent, search]);

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{search?.name ? t('search.resultsFor', { term: search.name }) : t('nav.recent')}</h1>
        <SelectionBar files={pickSelected(files, selected)} view="recent" />
      </div>
      {search && <SearchFilters filter={search} />}
      {q.error && !files ? (
        <EmptyState icon="recent" title={t('files.loadFailed')} hint={errorMessage(q.error)} />
      ) : !files ? (
        <Skeleton />
      ) : files.length === 0 ? (
        <EmptyState
          icon="recent"
          title={search ? t('search.noResults') : t('recent.empty')}
          hint={search ? undefined : t('recent.emptyHint')}
        />
      ) : (
        <FileView files={files} viewType="list" view="recent" keyword={search?.name} activity={recent?.activity} label={t('nav.recent')} />
      )}
    </section>
  );
}
