/** The items a file screen shows: a folder or the starred items from the local database, or a search from the server. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { LIMITS } from '@haul/shared/plain';
import type { DriveFile, SearchFilter, SortOrder } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { searchFilters } from '../search/search-filters';
import { syncEngineFor } from '../sync/use-sync-engine';
import { LIVE_FILTERS, TRASH_FILTERS, listFiles, type Filters } from './files-api';
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
  // The folder, or null for the starred items: what the slice (a new object each render) stands for.
  const parentId = slice.kind === 'folder' ? slice.parentId : null;
  useEffect(() => {
    setError(null);
    const ac = new AbortController();
    const engine = syncEngineFor(userId);
    setUnknown(parentId === null || !engine.hasFolder(parentId));
    // A folder loaded whole before is kept current by incremental syncs; only a new one is fetched page by page.
    const run =
      parentId === null
        ? engine.syncStarred(ac.signal)
        : engine.hasFolder(parentId)
          ? engine.incremental()
          : engine.syncFolder(parentId, ac.signal);
    run
      .catch((err) => {
        if (!ac.signal.aborted && !isApiError(err, 'unauthenticated')) setError(err);
      })
      .finally(() => !ac.signal.aborted && setUnknown(false));
    return () => ac.abort();
  }, [userId, parentId]);
  const files = useMemo(
    () => (!rows || (rows.length === 0 && unknown) ? undefined : sortFiles([...rows], order, pin, locale)),
    [rows, unknown, order, pin, locale],
  );
  return { files, error };
}

/** A listing read straight from the server (the trash, a search), 100 a page, loaded as the list scrolls. */
export function useServerListing(
  filters: Filters | null,
  opts: { key: unknown[]; order: SortOrder; pin: boolean; locale: string },
): Listing {
  const q = useInfiniteQuery({
    queryKey: [...opts.key, filters, opts.order],
    enabled: filters !== null,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      listFiles({ parentId: '*', filters: filters ?? {}, order: opts.order, limit: LIMITS.listDefault, pageToken: pageParam }, signal),
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

/** Server-side search of the whole drive, or of the trash. */
export function useSearchListing(
  filter: SearchFilter | null,
  opts: { trash?: boolean; order: SortOrder; pin: boolean; locale: string },
): Listing {
  const filters = filter ? { ...(opts.trash ? TRASH_FILTERS : LIVE_FILTERS), ...searchFilters(filter) } : null;
  return useServerListing(filters, { ...opts, key: ['search', opts.trash ? 'trash' : 'live'] });
}
