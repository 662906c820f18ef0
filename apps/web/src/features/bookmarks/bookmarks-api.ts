/** Bookmarks on the server: links kept to fetch later, and keeping one from anywhere in the app. */
import i18n from 'i18next';
import { toast } from 'sonner';
import type { Bookmark, BookmarkSource, UrlCheck } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { goTo } from '../../lib/go-to';
import { refreshQueries } from '../files/settle-changes';

export type { Bookmark };
export const BOOKMARKS_KEY = 'bookmarks';
const PAGE = 100;

export const listBookmarks = (q: string, pageToken: string, signal?: AbortSignal) =>
  haul.call('listBookmarks', { query: { q: q || undefined, limit: PAGE, page_token: pageToken || undefined }, signal });

export const renameBookmark = (id: string, name: string) => haul.call('renameBookmark', { params: { id }, body: { name } });
export const deleteBookmarks = (ids: string[]) => haul.call('deleteBookmarks', { body: { ids } });
export const fetchBookmarks = (ids: string[], parentId: string) => haul.call('fetchBookmarks', { body: { ids, parent_id: parentId } });

/** What a check found, as a bookmark keeps it. */
const checkOf = (c: UrlCheck) => ({ kind: c.kind, name: c.name.slice(0, 1000), size: c.size, mime_type: c.mime_type.slice(0, 255) });

/**
 * Keeps links for later and says so, with the way to the list; false (after a toast of the refusal) when one was
 * refused. Links are kept one by one, so those before a refusal stay kept.
 */
export async function keepForLater(links: { url: string; name?: string; check?: UrlCheck }[], source: BookmarkSource): Promise<boolean> {
  try {
    for (const l of links) {
      await haul.call('createBookmark', { body: { url: l.url, source, ...(l.name ? { name: l.name.slice(0, 255) } : {}), ...(l.check ? { check: checkOf(l.check) } : {}) } });
    }
  } catch (err) {
    toast.error(errorMessage(err));
    return false;
  }
  void refreshQueries([BOOKMARKS_KEY]);
  toast.success(i18n.t('bookmarksPage.kept', { count: links.length }), {
    action: { label: i18n.t('bookmarksPage.open'), onClick: () => goTo('/bookmarks') },
  });
  return true;
}
