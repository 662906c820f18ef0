/**
 * A list read a page at a time (`page_token` in, `next_page_token` out), newest first as the server gives it:
 * "Loading…", the failure in place, the words for an empty list, the items, and "Load more" while there are more.
 * The failure shows here, so the query is quiet (no toast as well).
 */
import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/error-message';
import { FormError } from './form-error';

interface Props<P, T> {
  queryKey: QueryKey;
  /** One page from its token ('' for the first). */
  load: (pageToken: string, signal: AbortSignal) => Promise<P>;
  /** The items of one page. */
  items: (page: P) => T[];
  itemKey: (item: T) => string;
  /** Each item as an `<li>`. */
  children: (item: T) => ReactNode;
  /** Said when there is nothing: words in the muted line, or an element of its own. */
  empty: ReactNode;
  /** `ol` where the order means something (newest first), else `ul`. */
  ordered?: boolean;
  className: string;
  /** The list's accessible name: its words, or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  moreLabel: string;
  moreClassName?: string;
  /** Shown above the items, from the first page (totals a listing sends with each page). */
  header?: (first: P) => ReactNode;
}

export function PagedList<P extends { next_page_token?: string }, T>(props: Props<P, T>) {
  const { queryKey, load, items: pick, itemKey, children, empty, ordered, className, label, labelledBy, moreLabel, moreClassName, header } = props;
  const { t } = useTranslation();
  const list = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => load(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    meta: { quiet: true },
  });
  if (list.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (list.isError) return <FormError error={errorMessage(list.error)} />;
  const items = list.data.pages.flatMap(pick);
  if (!items.length) return typeof empty === 'string' ? <p className="muted">{empty}</p> : empty;
  const List = ordered ? 'ol' : 'ul';
  return (
    <>
      {header?.(list.data.pages[0]!)}
      <List className={className} aria-label={label} aria-labelledby={labelledBy}>
        {items.map((item) => (
          <Fragment key={itemKey(item)}>{children(item)}</Fragment>
        ))}
      </List>
      {list.hasNextPage && (
        <button
          className={moreClassName ? `btn ${moreClassName}` : 'btn'}
          type="button"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? t('common.loading') : moreLabel}
        </button>
      )}
    </>
  );
}
