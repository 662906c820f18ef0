/** Calls of share links: the owner's (create, change, list, cancel) and a visitor's (view, file info, save). */
import type { ShareEntry, ShareKind, SortOrder } from '@haul/shared';
import { haul } from '../../lib/api-client';

/**
 * `phrase`: words a person can type to find the share (a link with a pass code only); '' for none. `title`: the name
 * visitors see; '' for the server's (the first item's name).
 */
export const createShare = (fileIds: string[], kind: ShareKind, expirationDays: number, phrase = '', title = '') =>
  haul.call('createShare', {
    body: { file_ids: fileIds, share_to: kind, expiration_days: expirationDays, ...(phrase.trim() ? { phrase } : {}), ...(title.trim() ? { title: title.trim() } : {}) },
  });

/** `expirationDays` 0 keeps the validity; `passCode` '' asks for a new code. */
export const updateShare = (shareId: string, change: { kind?: ShareKind; expirationDays?: number; passCode?: string }) =>
  haul.call('updateShare', {
    body: {
      share_id: shareId,
      share_to: change.kind,
      expiration_days: change.expirationDays,
      pass_code: change.passCode,
    },
  });

export const listShares = (pageToken: string | undefined, signal?: AbortSignal) =>
  haul.call('listShares', { query: { limit: 100, page_token: pageToken }, signal });

export async function getShareEntry(shareId: string, signal?: AbortSignal): Promise<ShareEntry | null> {
  const page = await haul.call('listShares', { query: { limit: 1, filters: JSON.stringify({ id: { in: shareId } }) }, signal });
  return page.data[0] ?? null;
}

/**
 * The live share link that exposes exactly these items, if the owner made one before, and how many of the items some
 * link shares already (share/status/files).
 */
export async function shareStatusFor(fileIds: string[], signal?: AbortSignal): Promise<{ entry: ShareEntry | null; sharedCount: number }> {
  const { file_statuses } = await haul.call('shareStatusOfFiles', { body: { file_ids: fileIds } });
  const sharedCount = new Set(file_statuses.map((s) => s.file_id)).size;
  const wanted = new Set(fileIds);
  const candidates = [...new Set(file_statuses.map((s) => s.share_id))].filter((id) =>
    fileIds.every((f) => file_statuses.some((s) => s.share_id === id && s.file_id === f)),
  );
  for (const id of candidates) {
    const entry = await getShareEntry(id, signal);
    if (entry && entry.file_ids.length === wanted.size && entry.file_ids.every((f) => wanted.has(f))) return { entry, sharedCount };
  }
  return { entry: null, sharedCount };
}

export const cancelShares = (ids: string[]) => haul.call('cancelShares', { body: { ids } });

export interface ShareAccess {
  shareId: string;
  passCode?: string;
  token?: string;
}

/**
 * Share calls work signed out, and the server takes a missing or expired token as a visitor's. The owner must be
 * known (no pass code asked, is_owner), so a token close to expiry is refreshed first, as for the drive's calls.
 */
const freshToken = () => haul.token().catch(() => null);

/** GET share: works signed out; the owner (signed in) needs no pass code. */
export async function viewShare(a: ShareAccess, page: { parentId?: string; pageToken?: string; order?: SortOrder }, signal?: AbortSignal) {
  await freshToken();
  const view = await haul.call('viewShare', {
    query: {
      share_id: a.shareId,
      pass_code: a.passCode || undefined,
      pass_code_token: a.token || undefined,
      parent_id: page.parentId,
      page_token: page.pageToken,
      order: page.order,
      limit: 100,
      thumbnail_size: 'SIZE_LARGE',
    },
    signal,
  });
  return view;
}

export async function shareFileInfo(a: ShareAccess, fileId: string, play = false) {
  await freshToken();
  const info = await haul.call('shareFileInfo', {
    query: { share_id: a.shareId, file_id: fileId, pass_code_token: a.token || undefined, usage: play ? 'PLAY' : undefined },
  });
  return info.file_info;
}

/** A signed link to a zip of the share: all of it when `ids` is empty, else those items of it. */
export async function shareZipLink(a: ShareAccess, ids: string[]) {
  await freshToken();
  return haul.call('createShareZipLink', { body: { share_id: a.shareId, pass_code_token: a.token || undefined, ...(ids.length ? { ids } : {}) } });
}

/** Saves items of a share (all when `fileIds` is empty) into the caller's folder. */
export const restoreShare = (a: ShareAccess, fileIds: string[], parentId: string) =>
  haul.call('restoreShare', {
    body: {
      share_id: a.shareId,
      pass_code_token: a.token || undefined,
      file_ids: fileIds.length ? fileIds : undefined,
      parent_id: parentId,
    },
  });
