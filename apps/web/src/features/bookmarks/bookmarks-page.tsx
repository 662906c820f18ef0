/**
 * Bookmarks (seed 000 route `bookmarks`): links kept to fetch later, the most recently kept first, each with what its
 * check found and when it was kept. Pick some and fetch them into a folder, rename one, delete some. The header's
 * search filters the list here (name or link), as it does in the other main views.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import { useDialog } from '../../app/dialogs/dialog-store';
import { EndSentinel } from '../../components/end-sentinel';
import { Icon, type IconName } from '../../components/icon';
import { errorMessage } from '../../lib/error-message';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { runChange } from '../files/file-mutations';
import { refreshQueries } from '../files/settle-changes';
import { formatTime } from '../files/format-time';
import { readSearch } from '../search/search-state';
import { BOOKMARKS_KEY, deleteBookmarks, listBookmarks, type Bookmark } from './bookmarks-api';
import { FetchDialog, RenameDialog } from './bookmark-dialogs';
import './bookmarks.css';

const ICON: Record<Bookmark['kind'], IconName> = { http: 'globe', magnet: 'link', torrent: 'torrent' };

type Open = { type: 'fetch'; items: Bookmark[] } | { type: 'rename'; item: Bookmark } | null;

export function BookmarksPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const term = readSearch(params)?.name ?? '';
  const openDialog = useDialog((s) => s.open);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<Open>(null);
  const q = useInfiniteQuery({
    queryKey: [BOOKMARKS_KEY, term],
    queryFn: ({ pageParam, signal }) => listBookmarks(term, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
  });
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.bookmarks), [q.data]);
  // Only what is on show stays picked (a search narrows the list).
  const chosen = useMemo(() => (items ?? []).filter((b) => picked.has(b.id)), [items, picked]);
  const allPicked = !!items?.length && chosen.length === items.length;
  const refresh = () => refreshQueries([BOOKMARKS_KEY]);
  const toggle = (id: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const remove = (list: Bookmark[]) =>
    openDialog({
      type: 'confirm',
      title: t('bookmarksPage.deleteTitle', { count: list.length }),
      body: t('bookmarksPage.deleteBody'),
      confirmLabel: t('bookmarksPage.delete'),
      danger: true,
      onConfirm: () =>
        runChange(() => deleteBookmarks(list.map((b) => b.id)), t('bookmarksPage.deleted', { count: list.length })).then(() => {
          setPicked(new Set());
          return refresh();
        }),
    });
  const facts = (b: Bookmark) =>
    [
      t(`urlChecker.kind.${b.kind}`),
      b.size ? formatSize(b.size, 1, i18n.language) : '',
      b.checked_at ? t('bookmarksPage.checked', { time: formatTime(b.checked_at, i18n.language) }) : t('bookmarksPage.unchecked'),
      t('bookmarksPage.keptFrom', { time: formatTime(b.created_at, i18n.language), source: t(`bookmarksPage.source.${b.source}`) }),
    ].filter(Boolean);

  return (
    <section className="page bookmarks-page">
      <div className="toolbar">
        <h1 className="crumb current">{term ? t('search.resultsFor', { term }) : t('nav.bookmarks')}</h1>
        <div className="toolbar-end">
          {chosen.length > 0 && (
            <>
              <button className="btn primary" onClick={() => setOpen({ type: 'fetch', items: chosen })}>
                <Icon name="download" size={18} />
                {t('bookmarksPage.fetchCount', { count: chosen.length })}
              </button>
              <button className="btn danger" onClick={() => remove(chosen)}>
                {t('bookmarksPage.deleteCount', { count: chosen.length })}
              </button>
            </>
          )}
        </div>
      </div>
      {q.error && !items?.length ? (
        <EmptyState icon="bookmark" title={t('files.loadFailed')} hint={errorMessage(q.error)} />
      ) : !items ? (
        <Skeleton />
      ) : items.length === 0 ? (
        term ? (
          <EmptyState icon="search" title={t('search.noResults')} />
        ) : (
          <EmptyState icon="bookmark" title={t('bookmarks.empty')} hint={t('bookmarksPage.emptyHint')} />
        )
      ) : (
        <>
          <label className="bookmark-all check-field">
            <input type="checkbox" checked={allPicked} onChange={() => setPicked(allPicked ? new Set() : new Set(items.map((b) => b.id)))} />
            {t('bookmarksPage.selectAll')}
          </label>
          <ul className="bookmark-list" aria-label={t('nav.bookmarks')}>
            {items.map((b) => (
              <li key={b.id} aria-label={b.name} className={picked.has(b.id) ? 'picked' : undefined}>
                <input type="checkbox" aria-label={t('bookmarksPage.select', { name: b.name })} checked={picked.has(b.id)} onChange={() => toggle(b.id)} />
                <Icon name={ICON[b.kind]} size={24} />
                <span className="bookmark-main">
                  <strong className="bookmark-name" title={b.name}>
                    {b.name}
                  </strong>
                  <small className="muted bookmark-url" title={b.url}>
                    {b.url}
                  </small>
                  <small className="muted">{facts(b).join(' · ')}</small>
                </span>
                <span className="bookmark-actions">
                  <button className="icon-btn" aria-label={t('bookmarksPage.fetchOf', { name: b.name })} title={t('bookmarksPage.fetch')} onClick={() => setOpen({ type: 'fetch', items: [b] })}>
                    <Icon name="download" />
                  </button>
                  <button className="icon-btn" aria-label={t('bookmarksPage.renameOf', { name: b.name })} title={t('bookmarksPage.rename')} onClick={() => setOpen({ type: 'rename', item: b })}>
                    <Icon name="edit" />
                  </button>
                  <button className="icon-btn" aria-label={t('bookmarksPage.deleteOf', { name: b.name })} title={t('bookmarksPage.delete')} onClick={() => remove([b])}>
                    <Icon name="trash" />
                  </button>
                </span>
              </li>
            ))}
            <EndSentinel onVisible={() => q.hasNextPage && !q.isFetchingNextPage && void q.fetchNextPage()} />
          </ul>
        </>
      )}
      {open?.type === 'fetch' && (
        <FetchDialog
          items={open.items}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            setPicked(new Set());
          }}
        />
      )}
      {open?.type === 'rename' && (
        <RenameDialog
          item={open.item}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void refresh();
          }}
        />
      )}
    </section>
  );
}
