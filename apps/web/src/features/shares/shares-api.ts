/** Calls of share links: the owner's (create, change, list, cancel) and a visitor's (view, file info, save). */
import type { DriveFile, ShareEntry, ShareKind, ShareView, SortOrder } from '@haul/shared';
import { api } from '../../lib/api-client';

export const createShare = (fileIds: string[], kind: ShareKind, expirationDays: number) =>
  api.post<ShareEntry>('/drive/v1/share', { file_ids: fileIds, share_to: kind, expiration_days: expirationDays });

/** `expirationDays` 0 keeps the validity; `passCode` '' asks for a new code. */
export const updateShare = (shareId: string, change: { kind?: ShareKind; expirationDays?: number; passCode?: string }) =>
  api.patch<ShareEntry>('/drive/v1/share', {
    share_id: shareId,
    share_to: change.kind,
    expiration_days: change.expirationDays,
    pass_code: change.passCode,
  });

export const listShares = (pageToken: string | undefined, signal?: AbortSignal) =>
  api.get<{ data: ShareEntry[]; next_page_token: string }>('/drive/v1/share/list', { limit: 100, page_token: pageToken }, signal);

export const getShareEntry = async (shareId: string, signal?: AbortSignal) =>
  (await api.get<{ data: ShareEntry[] }>('/drive/v1/share/list', { limit: 1, filters: JSON.stringify({ id: { in: shareId } }) }, signal))
    .data[0] ?? null;

/** The live share link that exposes exactly these items, if the owner made one before (share/status/files). */
export async function existingShare(fileIds: string[], signal?: AbortSignal): Promise<ShareEntry | null> {
  const { file_statuses } = await api.post<{ file_statuses: { file_id: string; share_id: string }[] }>('/drive/v1/share/status/files', { file_ids: fileIds });
  const wanted = new Set(fileIds);
  const candidates = [...new Set(file_statuses.map((s) => s.share_id))].filter((id) =>
    fileIds.every((f) => file_statuses.some((s) => s.share_id === id && s.file_id === f)),
  );
  for (const id of candidates) {
    const entry = await getShareEntry(id, signal);
    if (entry && entry.file_ids.length === wanted.size && entry.file_ids.every((f) => wanted.has(f))) return entry;
  }
  return null;
}

export const cancelShares = (ids: string[]) => api.post('/drive/v1/share:batchDelete', { ids });

export interface ShareAccess {
  shareId: string;
  passCode?: string;
  token?: string;
}

/** GET share: works signed out; the owner (signed in) needs no pass code. */
export const viewShare = (a: ShareAccess, page: { parentId?: string; pageToken?: string; order?: SortOrder }, signal?: AbortSignal) =>
  api.get<ShareView>(
    '/drive/v1/share',
    {
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
  );

export const shareFileInfo = (a: ShareAccess, fileId: string) =>
  api
    .get<{ file_info: DriveFile }>('/drive/v1/share/file_info', {
      share_id: a.shareId,
      file_id: fileId,
      pass_code_token: a.token || undefined,
    })
    .then((r) => r.file_info);

/** Saves items of a share (all when `fileIds` is empty) into the caller's folder. */
export const restoreShare = (a: ShareAccess, fileIds: string[], parentId: string) =>
  api.post<{ file_ids: string[] }>('/drive/v1/share/restore', {
    share_id: a.shareId,
    pass_code_token: a.token || undefined,
    file_ids: fileIds.length ? fileIds : undefined,
    parent_id: parentId,
  });
