/** The items a file screen shows: a folder or the starred items from the local database, or a search from the server. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { LIMITS, type DriveFile, type SearchFilter, type SortOrder } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { searchFilters } from '../search/search-filters';
import { syncEngineFor } from '../sync/use-sync-engine';
import { LIVE_FILTERS, TRASH_FILTERS, listFiles } from './files-api';
import { sortFiles } from './sort';
import { useLocalFiles, type LocalSlice } from './use-local-files';

export interface Listing {
  files: DriveFile[] | undefined;
  error: unknown;
  loadMore?: () => void;
}

/** Local rows, kept fresh by a folder (or starred) sync that stops when the screen changes. */
export function useLocalListing(userId: string, slice: LocalSlice, order: SortOrder, pin: boolean, locale: string): Listing {
  const rows = useLocalFiles(userId, slice);
  const [error, setError] = useState<unknown>(null);
  // A slice never loaded whole before is not known to be empty until its sync ends: show the skeleton meanwhile.
  const [unknown, setUnknown] = useState(false);
  const key = slice.kind === 'folder' ? slice.parentId : '*star';
  useEffect(() => {
    setError(null);
    const ac = new AbortController();
    const engine = syncEngineFor(userId);
    setUnknown(slice.kind === 'starred' || !engine.hasFolder(slice.parentId));
    // A folder loaded whole before is kept current by incremental syncs; only a new one is fetched page by page.
    const run =
      slice.kind === 'starred'
        ? engine.syncStarred(ac.signal)
        : engine.hasFolder(slice.parentId)
          ? engine.incremental()
          : engine.syncFolder(slice.parentId, ac.signal);
    run
      .catch((err) => {
        if (!ac.signal.aborted && !isApiError(err, 'unauthenticated')) setError(err);
      })
      .finally(() => !ac.signal.aborted && setUnknown(false));
    return () => ac.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, key]);
  const files = useMemo(
    () => (!rows || (rows.length === 0 && unknown) ? undefined : sortFiles([...rows], order, pin, locale)),
    [rows, unknown, order, pin, locale],
  );
  return { files, error };
}

/** Server-side search (whole drive, or the trash), 100 a page, loaded as the list scrolls. */
export function useSearchListing(
  filter: SearchFilter | null,
  opts: { trash?: boolean; order: SortOrder; pin: boolean; locale: string },
): Listing {
  const q = useInfiniteQuery({
    queryKey: ['search', opts.trash ? 'trash' : 'live', filter, opts.order],
    enabled: filter !== null,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      listFiles(
        {
          parentId: '*',
          filters: { ...(opts.trash ? TRASH_FILTERS : LIVE_FILTERS), ...searchFilters(filter ?? {}) },
          order: opts.order,
          limit: LIMITS.listDefault,
          pageToken: pageParam,
        },
        signal,
      ),
    getNextPageParam: (last) => last.next_page_token || undefined,
  });
  const files = useMemo(
    () =>
      q.data
        ? sortFiles(
            q.data.pages.flatMap((p) => p.files),
            opts.order,
            opts.pin,
            opts.locale,
          )
        : undefined,
    [q.data, opts.order, opts.pin, opts.locale],
  );
  return {
    files,
    error: q.error,
    loadMore: () => {
      if (q.hasNextPage && !q.isFetchingNextPage) void q.fetchNextPage();
    },
  };
}
