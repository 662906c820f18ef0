/**
 * What a share exposes: exactly the shared items and what is below them, never a sibling or a parent, and nothing
 * trashed, unfinished or flagged sensitive. Every call that reads through a share checks here.
 */
import { PHASE, SHARE_STATUS, type ShareStatus } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { findFile, ROOT_ID } from '../files/files.repository.js';
import { notFound } from '../http/errors.js';
import { shareRootIds } from './shares.repository.js';

/** Deeper than any real drive: a guard against a damaged parent chain. */
const MAX_DEPTH = 1000;

/** The words that go with each status, for clients that show the server's text. */
export const SHARE_STATUS_TEXT: Record<ShareStatus, string> = {
  OK: '',
  PASS_CODE_EMPTY: 'This share is protected by a pass code.',
  PASS_CODE_ERROR: 'The pass code is incorrect.',
  MAX_RESTORE_COUNT: 'This share has been saved too many times.',
  EXPIRED: 'This share has expired.',
  DELETED: 'This share was cancelled, or its files were deleted.',
  SENSITIVE_RESOURCE: 'This share holds content that cannot be shared.',
  SENSITIVE_WORD: 'This share holds content that cannot be shared.',
  AUDITING: 'This share is being reviewed.',
  NOT_FOUND: 'This share does not exist.',
  PROHIBITED: 'This share is not available.',
};

/** The status the share row alone gives: OK, EXPIRED, DELETED, or what an operator holds it to. */
export function linkStatus(share: ShareRow, now: number): ShareStatus {
  if (share.status === SHARE_STATUS.DELETED) return SHARE_STATUS.DELETED;
  // Held by an operator (share-moderation.ts): the visitor's very next request says so.
  if (share.status !== SHARE_STATUS.OK) return share.status as ShareStatus;
  if (share.expires_at !== null && share.expires_at <= now) return SHARE_STATUS.EXPIRED;
  return SHARE_STATUS.OK;
}

/** Whether a visitor may see this row through a share (the row is already known to be inside it). */
export const visible = (r: FileRow) => !r.trashed && !r.sensitive && r.phase === PHASE.COMPLETE;

/**
 * The file `fileId` when it is a shared item or below one, with the chain from that shared item down to it;
 * file_not_found otherwise (another account's file, a sibling, a parent, something trashed or sensitive on the way).
 * Walks up from the file and stops at the first shared item: a few lookups by primary key, however deep the drive.
 */
export async function requireInShare(
  db: Db,
  share: ShareRow,
  fileId: string,
  rootIds?: string[],
  /** What may be on the way: a visitor's view, unless an operator reviews a report (sensitive files too). */
  shows: (r: FileRow) => boolean = visible,
): Promise<{ file: FileRow; chain: FileRow[] }> {
  const roots = new Set(rootIds ?? (await shareRootIds(db, share.id)));
  const chain: FileRow[] = [];
  let id = fileId;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const row = await findFile(db, share.user_id, id);
    if (!row || !shows(row)) break;
    chain.unshift(row);
    if (roots.has(row.id)) return { file: chain.at(-1)!, chain };
    if (row.parent_id === ROOT_ID) break;
    id = row.parent_id;
  }
  throw notFound('The file is not part of this share.');
}
