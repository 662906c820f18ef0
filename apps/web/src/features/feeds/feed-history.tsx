/** A feed's history: each item seen, newest first, with what became of it; an item without a download can be fetched anyway. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EndSentinel } from '../../components/end-sentinel';
import { Icon, type IconName } from '../../components/icon';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { refreshQueries } from '../files/settle-changes';
import { reportLimit } from '../limits/limit-store';
import { followCloudTasks } from '../offline/cloud-task-poll';
import { FEED_ITEMS_KEY, FEEDS_KEY, fetchFeedItems, listFeedItems, type Feed, type FeedItem } from './feeds-api';

const ICON: Record<FeedItem['kind'], IconName> = { http: 'globe', magnet: 'link', torrent: 'torrent', none: 'alert' };
/** While open, the history is read again this often: a check may add items at any time. */
const REFRESH_MS = 5_000;

export function FeedHistory({ feed }: { feed: Feed }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState('');
  const q = useInfiniteQuery({
    queryKey: [FEED_ITEMS_KEY, feed.id],
    queryFn: ({ pageParam, signal }) => listFeedItems(feed.id, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    refetchInterval: REFRESH_MS,
  });
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.items), [q.data]);
  const fetchAnyway = async (item: FeedItem) => {
    setBusy(item.id);
    try {
      await fetchFeedItems(feed.id, [item.id]);
      toast.success(t('feeds.fetching', { title: item.title }));
      followCloudTasks();
    } catch (err) {
      if (!reportLimit(err)) toast.error(errorMessage(err));
    } finally {
      setBusy('');
      void refreshQueries([FEED_ITEMS_KEY, FEEDS_KEY]);
    }
  };
  if (q.error && !items) return <p className="muted feed-history-note">{errorMessage(q.error)}</p>;
  if (!items) return <p className="muted feed-history-note">{t('feeds.loading')}</p>;
  if (!items.length) return <p className="muted feed-history-note">{t('feeds.noItems')}</p>;
  return (
    <ul className="feed-history" aria-label={t('feeds.historyOf', { title: feed.title })}>
      {items.map((item) => (
        <li key={item.id} aria-label={item.title} data-state={item.state}>
          <Icon name={ICON[item.kind]} size={20} />
          <span className="feed-item-main">
            <strong className="feed-item-title" title={item.title}>
              {item.title}
            </strong>
            <small className="muted">
              <span className={`feed-state ${item.state}`}>{t(`feeds.state.${item.state}`)}</span>
              {item.why ? ` · ${item.why}` : ''} · {t('feeds.seen', { time: formatTime(item.seen_at, i18n.language) })}
            </small>
          </span>
          {item.state !== 'fetched' && item.kind !== 'none' && (
            <button className="btn small" disabled={busy === item.id} onClick={() => void fetchAnyway(item)}>
              {t('feeds.fetchAnyway')}
            </button>
          )}
        </li>
      ))}
      <EndSentinel onVisible={() => q.hasNextPage && !q.isFetchingNextPage && void q.fetchNextPage()} />
    </ul>
  );
}
