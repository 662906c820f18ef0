/** The owner's side of share links: create, change, list, cancel, and which files are shared. */
import { SHARE_EXPIRATION_DAYS, SHARE_KINDS, SHARE_STATUS, type ShareEntry, type ShareKind } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { ShareRow } from '../db/schema.js';
import { requireFiles } from '../files/files.repository.js';
import { HttpError, badInput } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { newestFirstPage } from '../db/newest-first.js';
import { newPassCode, newShareId, PASS_CODE_PATTERN } from './share-secrets.js';
import { linkStatus, visible } from './share-scope.js';
import { presentShareEntry } from './shares.presenter.js';
import { liveShareRoots, requireOwnShares, subtreeSummary } from './shares.repository.js';
import { checkPhrase, claimPhrase } from './share-phrases.js';
import { refuseBlockedWords } from './share-moderation.js';

/** A phrase (or none for '' / absent) for a link of `kind`: only a link with a pass code may be found by words. */
function phraseFor(kind: ShareKind, raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (kind !== 'encryptedlink') throw badInput('Only a link with a pass code can have a phrase: a phrase is easy to guess.');
  return checkPhrase(raw);
}

const DAY_MS = 86_400_000;
const LISTING = 'shares';

export interface NewShare {
  fileIds: string[];
  kind: string;
  expirationDays: number;
  /** Chosen by the owner; generated when absent for a link with a pass code. */
  passCode?: string;
  title?: string;
  /** Words a person can type to find the share (links with a pass code only). */
  phrase?: string;
  /** Saves allowed, 0 for no limit. */
  restoreLimit?: number;
}

function checkKind(kind: string): ShareKind {
  if (!(SHARE_KINDS as readonly string[]).includes(kind)) throw badInput(`share_to must be one of ${SHARE_KINDS.join(', ')}.`);
  return kind as ShareKind;
}

function checkDays(days: number): number {
  if (!(SHARE_EXPIRATION_DAYS as readonly number[]).includes(days)) {
    throw badInput(`expiration_days must be one of ${SHARE_EXPIRATION_DAYS.join(', ')}.`);
  }
  return days;
}

/** The pass code of a link of `kind`: none for a public link, the chosen one, or a new one. */
function passCodeFor(kind: ShareKind, chosen: string | undefined): string {
  if (kind === 'publiclink') {
    if (chosen) throw badInput('A public link has no pass code; share it as "encryptedlink" to use one.');
    return '';
  }
  if (chosen === undefined || chosen === '') return newPassCode();
  if (!PASS_CODE_PATTERN.test(chosen)) throw badInput('The pass code must be 4 to 16 letters or digits.');
  return chosen.toLowerCase();
}

const expiresAt = (days: number, now: number) => (days === -1 ? null : now + days * DAY_MS);

async function entryOf(ctx: AppContext, share: ShareRow): Promise<ShareEntry> {
  const roots = await liveShareRoots(ctx.db, share);
  const now = ctx.clock.now();
  // A link whose items were all trashed or deleted shows nothing any more: it is as good as cancelled.
  const status = linkStatus(share, now) === SHARE_STATUS.OK && roots.length === 0 ? SHARE_STATUS.DELETED : linkStatus(share, now);
  return presentShareEntry(
    share,
    roots.map((r) => r.id),
    status,
    now,
    publicUrl(ctx),
  );
}

/** Shares the caller's live items; refused when any of them, or anything inside, is flagged sensitive. */
export async function createShare(ctx: AppContext, userId: string, input: NewShare): Promise<ShareEntry> {
  const kind = checkKind(input.kind);
  const days = checkDays(input.expirationDays);
  const passCode = passCodeFor(kind, input.passCode);
  const phrase = phraseFor(kind, input.phrase);
  const title = (input.title ?? '').trim();
  if (title.length > 255) throw badInput('The title must have at most 255 characters.');
  const share = await ctx.db.transaction().execute(async (trx) => {
    const rows = await requireFiles(trx, userId, input.fileIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const roots = [...new Set(input.fileIds)].map((id) => byId.get(id)!);
    const hidden = roots.find((r) => !visible(r));
    if (hidden?.trashed) throw new HttpError(400, 'file_in_recycle_bin', `"${hidden.name}" is in the trash.`);
    const summary = await subtreeSummary(
      trx,
      userId,
      roots.map((r) => r.id),
    );
    if (hidden || summary.sensitive) {
      throw new HttpError(403, 'sensitive_resource', 'The selection holds a file that cannot be shared.');
    }
    const now = ctx.clock.now();
    const first = roots[0]!;
    const id = newShareId();
    if (phrase) await claimPhrase(trx, phrase, id, now);
    const row: ShareRow = {
      id,
      user_id: userId,
      kind,
      pass_code: passCode,
      title: title || (roots.length > 1 ? `${first.name} (+${roots.length - 1})` : first.name),
      file_kind: first.kind,
      file_size: summary.bytes,
      file_count: summary.files,
      expiration_days: days,
      expires_at: expiresAt(days, now),
      status: SHARE_STATUS.OK,
      phrase,
      view_count: 0,
      restore_count: 0,
      restore_limit: checkRestoreLimit(input.restoreLimit ?? 0),
      moderation_reason: '',
      created_time: now,
      updated_time: now,
    };
    await refuseBlockedWords(trx, [row.title, row.phrase]);
    await trx.insertInto('shares').values(row).execute();
    await trx
      .insertInto('share_files')
      .values(roots.map((r, position) => ({ share_id: row.id, file_id: r.id, position })))
      .execute();
    return row;
  });
  return entryOf(ctx, share);
}

export interface ShareChange {
  shareId: string;
  kind?: string;
  /** 0 keeps the current validity; other values restart it from now. */
  expirationDays?: number;
  passCode?: string;
  title?: string;
  /** '' takes the phrase away. */
  phrase?: string;
  /** Saves allowed, 0 for no limit. */
  restoreLimit?: number;
}

/** A save limit: 0 (none) to a million. */
function checkRestoreLimit(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0 || n > 1_000_000) throw badInput('restore_limit must be a whole number from 0 (no limit) to 1000000.');
  return n;
}

/** Changes a share's kind, pass code, validity, title or phrase. A new pass code ends every visitor's access. */
export async function updateShare(ctx: AppContext, userId: string, change: ShareChange): Promise<ShareEntry> {
  const [share] = await requireOwnShares(ctx.db, userId, [change.shareId]);
  const now = ctx.clock.now();
  const kind = change.kind === undefined ? (share!.kind as ShareKind) : checkKind(change.kind);
  // The code stays unless it is changed or the kind is ('' on a link with a code asks for a new one).
  const passCode = kind === share!.kind && change.passCode === undefined ? share!.pass_code : passCodeFor(kind, change.passCode);
  const next: Partial<ShareRow> = { kind, pass_code: passCode, updated_time: now };
  if (change.expirationDays !== undefined && change.expirationDays !== 0) {
    next.expiration_days = checkDays(change.expirationDays);
    next.expires_at = expiresAt(next.expiration_days, now);
  }
  if (change.title !== undefined) {
    const title = change.title.trim();
    if (!title || title.length > 255) throw badInput('The title must have 1 to 255 characters.');
    next.title = title;
  }
  if (change.restoreLimit !== undefined) next.restore_limit = checkRestoreLimit(change.restoreLimit);
  if (change.phrase !== undefined) next.phrase = phraseFor(kind, change.phrase);
  // A link made public loses its phrase: anyone could then open it by guessing words.
  else if (kind !== 'encryptedlink') next.phrase = null;
  await ctx.db.transaction().execute(async (trx) => {
    if (next.title !== undefined || next.phrase) await refuseBlockedWords(trx, [next.title, next.phrase]);
    if (next.phrase) await claimPhrase(trx, next.phrase, share!.id, now);
    await trx.updateTable('shares').set(next).where('id', '=', share!.id).execute();
  });
  return entryOf(ctx, { ...share!, ...next });
}

/** The caller's shares, newest first (cancelled ones are gone from the list). */
export async function listShares(
  ctx: AppContext,
  userId: string,
  opts: { limit: number; pageToken?: string; ids?: string[] },
): Promise<{ data: ShareEntry[]; next_page_token: string }> {
  let q = ctx.db.selectFrom('shares').selectAll().where('user_id', '=', userId).where('status', '!=', SHARE_STATUS.DELETED);
  if (opts.ids) q = q.where('id', 'in', opts.ids.length ? opts.ids : ['']);
  const page = await newestFirstPage(q, { listing: LISTING, column: 'created_time', limit: opts.limit, pageToken: opts.pageToken });
  return {
    data: await Promise.all(page.rows.map((s) => entryOf(ctx, s))),
    next_page_token: page.nextPageToken,
  };
}

/** Cancels shares: their links answer DELETED at once, download links already handed out included. */
export async function cancelShares(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireOwnShares(trx, userId, ids);
    await trx
      .updateTable('shares')
      // A cancelled share gives its phrase back.
      .set({ status: SHARE_STATUS.DELETED, phrase: null, updated_time: ctx.clock.now() })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
  });
}

/** For each of the caller's files that a live share exposes directly: which share, and its status. */
export async function shareStatusOfFiles(
  ctx: AppContext,
  userId: string,
  fileIds: string[],
): Promise<{ file_statuses: { file_id: string; share_id: string; share_status: string }[] }> {
  const rows = await ctx.db
    .selectFrom('share_files')
    .innerJoin('shares', 'shares.id', 'share_files.share_id')
    .select(['share_files.file_id', 'shares.id as share_id', 'shares.status', 'shares.expires_at'])
    .where('shares.user_id', '=', userId)
    .where('share_files.file_id', 'in', [...new Set(fileIds)])
    .where('shares.status', '=', SHARE_STATUS.OK)
    .execute();
  const now = ctx.clock.now();
  return {
    file_statuses: rows
      .filter((r) => r.expires_at === null || r.expires_at > now)
      .map((r) => ({ file_id: r.file_id, share_id: r.share_id, share_status: SHARE_STATUS.OK })),
  };
}
