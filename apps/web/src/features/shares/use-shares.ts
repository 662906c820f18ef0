/** The owner's share list from the server (newest first, 100 a page), and refreshing it after a change. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { refreshQueries } from '../files/settle-changes';
import { listShares } from './shares-api';

export function useShareList() {
  const q = useInfiniteQuery({
    queryKey: ['shares'],
    queryFn: ({ pageParam, signal }) => listShares(pageParam || undefined, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
  });
  return {
    shares: q.data?.pages.flatMap((p) => p.data),
    error: q.error,
    loadMore: () => q.hasNextPage && !q.isFetchingNextPage && void q.fetchNextPage(),
  };
}

export const settleShares = () => refreshQueries(['shares', 'share']);
