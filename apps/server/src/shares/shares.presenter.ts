/** Share rows and shared files in their wire shapes; a visitor never sees the owner's hashes, tags or params. */
import type { FileKind, SharedFile, ShareEntry, ShareKind, ShareStatus } from '@haul/shared';
import type { FileRow, ShareRow } from '../db/schema.js';
import { presentFile, type PresentOptions } from '../files/files.presenter.js';
import { toRfc3339 } from '../lib/time.js';
import { SHARE_STATUS_TEXT } from './share-scope.js';
import { MODERATED } from './share-moderation.js';

/** The address of a share's page under `base`, the link base of the request (see http/public-url.ts). */
export const shareUrl = (base: string, id: string) => `${base}/s/${id}`;

/** Time left before a share expires: ('-1', '-1') for never, else whole days rounded up and seconds. */
export function expirationLeft(expiresAt: number | null, now: number): { days: string; seconds: string } {
  if (expiresAt === null) return { days: '-1', seconds: '-1' };
  const seconds = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return { days: String(Math.ceil(seconds / 86400)), seconds: String(seconds) };
}

export function presentShareEntry(share: ShareRow, fileIds: string[], status: ShareStatus, now: number, base: string): ShareEntry {
  const left = expirationLeft(share.expires_at, now);
  return {
    share_id: share.id,
    share_url: shareUrl(base, share.id),
    share_to: share.kind as ShareKind,
    pass_code: share.pass_code,
    phrase: share.phrase ?? '',
    title: share.title,
    file_kind: share.file_kind as FileKind,
    file_size: String(share.file_size),
    file_num: String(share.file_count),
    file_ids: fileIds,
    create_time: toRfc3339(share.created_time),
    view_count: String(share.view_count),
    restore_count: String(share.restore_count),
    restore_limit: String(share.restore_limit),
    share_status: status,
    // A share an operator holds says why, in the operator's words, to its owner.
    share_status_text: (MODERATED.includes(status) && share.moderation_reason) || SHARE_STATUS_TEXT[status],
    expiration_days: String(share.expiration_days),
    expiration_at: share.expires_at === null ? '-1' : toRfc3339(share.expires_at),
    expiration_left: left.days,
    expiration_left_seconds: left.seconds,
  };
}

/** A file as a share's visitor sees it: what it is, not whose or where else it lives. */
export function presentSharedFile(row: FileRow, opts: PresentOptions): SharedFile {
  return { ...presentFile(row, opts), user_id: '', hash: '', params: {}, tags: [], star: 0, delete_time: '' };
}
