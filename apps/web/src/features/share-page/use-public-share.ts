/** A share as a visitor sees it: the status, the items of the folder open, more pages on demand. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { sortFiles } from '../files/sort';
import { viewShare } from '../shares/shares-api';

export function usePublicShare(shareId: string, token: string, folderId: string | undefined, locale: string, enabled = true) {
  const q = useInfiniteQuery({
    queryKey: ['public-share', shareId, token, folderId ?? ''],
    enabled,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      viewShare({ shareId, token }, { parentId: folderId, pageToken: pageParam || undefined, order: 'NAME_ASC' }, signal),
    getNextPageParam: (last) => (last.share_status === 'OK' && last.next_page_token) || undefined,
  });
  const first = q.data?.pages[0];
  const files = useMemo(
    () =>
      q.data
        ? sortFiles(
            q.data.pages.flatMap((p) => p.files),
            'NAME_ASC',
            true,
            locale,
          )
        : undefined,
    [q.data, locale],
  );
  return {
    view: first,
    files,
    error: q.error,
    loading: q.isLoading,
    loadMore: () => q.hasNextPage && !q.isFetchingNextPage && void q.fetchNextPage(),
  };
}
