/** A visitor's side of a share link: open it (with its pass code), list its folders, fetch a file, save to a drive. */
import { FOLDER_KIND, PHASE, SHARE_STATUS, type SharedFile, type ShareStatus, type ShareView, type SortOrder } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { insertCopies } from '../files/copy-move.service.js';
import { presentBreadcrumb } from '../files/files.presenter.js';
import { requireTargetFolder, subtreeRows } from '../files/files.repository.js';
import { listFilesPage } from '../files/list-query.js';
import { HttpError, badInput } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';
import type { PassCodeGuard } from './pass-code-guard.js';
import { tooManyAttempts } from '../limits/attempt-limiter.js';
import { issuePassCodeToken, passCodeMatches, passCodeTokenValid, signShareContentLink } from './share-secrets.js';
import { linkStatus, requireInShare, SHARE_STATUS_TEXT } from './share-scope.js';
import { shareFileMedia } from './share-playback.js';
import { expirationLeft, presentSharedFile } from './shares.presenter.js';
import { bumpShareCount, liveShareRoots, loadShare } from './shares.repository.js';
import { restoresUsedUp } from './share-moderation.js';

export interface ShareAccess {
  shareId: string;
  passCode?: string;
  /** The token a correct pass code earned earlier. */
  token?: string;
  /** The signed-in caller, if any: the owner needs no pass code. */
  callerId?: string;
  /** Client address, for the pass-code guard. */
  address: string;
}

interface Opened {
  status: ShareStatus;
  share?: ShareRow;
  ownerName: string;
  rootIds: string[];
  token: string;
  isOwner: boolean;
  /** The live shared items; read only when `opts.items` asked for them. */
  roots: FileRow[];
}

/**
 * Checks the link and the pass code (slowing guessers down). With `items`, also what is left of the shared items: a
 * share whose items are all gone reads as DELETED, one holding a sensitive item as SENSITIVE_RESOURCE. Calls that
 * reach inside a shared folder skip that: the path they walk is checked item by item (requireInShare).
 */
export async function openShare(
  ctx: AppContext,
  guard: PassCodeGuard,
  a: ShareAccess,
  opts: { items: boolean; /** The caller holds a link signed with the pass code: no code to ask for. */ codeProven?: boolean },
): Promise<Opened> {
  const loaded = await loadShare(ctx.db, a.shareId.toLowerCase());
  const share = loaded?.share;
  const closed = (status: ShareStatus): Opened => ({ status, share, ownerName: '', rootIds: [], token: '', isOwner: false, roots: [] });
  if (!loaded || !share) return closed(SHARE_STATUS.NOT_FOUND);
  const status = linkStatus(share, ctx.clock.now());
  if (status !== SHARE_STATUS.OK) return closed(status);
  const isOwner = a.callerId === share.user_id;
  let token = '';
  if (share.kind === 'encryptedlink' && !isOwner && !opts.codeProven) {
    if (a.token && passCodeTokenValid(ctx, share, a.token)) token = a.token;
    else if (!a.passCode) return closed(SHARE_STATUS.PASS_CODE_EMPTY);
    else {
      const wait = await guard.take(share.id, a.address);
      if (wait > 0) throw tooManyAttempts(wait, 'Too many wrong pass codes.');
      if (!passCodeMatches(share, a.passCode)) return closed(SHARE_STATUS.PASS_CODE_ERROR);
      await guard.succeeded(share.id, a.address);
      token = issuePassCodeToken(ctx, share);
    }
  }
  const roots = opts.items ? await liveShareRoots(ctx.db, share) : [];
  if (opts.items && roots.length === 0) return closed(SHARE_STATUS.DELETED);
  if (roots.some((r) => r.sensitive)) return closed(SHARE_STATUS.SENSITIVE_RESOURCE);
  return { status: SHARE_STATUS.OK, share, ownerName: loaded.ownerName, rootIds: loaded.rootIds, token, isOwner, roots };
}

/** An open share, or the reason it is not, as an error (for calls that act rather than show). */
export async function requireOpen(
  ctx: AppContext,
  guard: PassCodeGuard,
  a: ShareAccess,
  opts: { items: boolean },
): Promise<Opened & { share: ShareRow }> {
  const opened = await openShare(ctx, guard, a, opts);
  if (opened.status !== SHARE_STATUS.OK || !opened.share) {
    throw new HttpError(403, 'permission_denied', SHARE_STATUS_TEXT[opened.status], [{ share_status: opened.status }]);
  }
  return opened as Opened & { share: ShareRow };
}

export interface SharePageRequest {
  /** A folder inside the share; absent for the shared items themselves. */
  parentId?: string;
  pageToken?: string;
  limit: number;
  order: SortOrder;
}

/** GET share: the status, and when it is OK a page of the share's items or of a folder inside it. */
export async function viewShare(ctx: AppContext, guard: PassCodeGuard, a: ShareAccess, page: SharePageRequest): Promise<ShareView> {
  const opened = await openShare(ctx, guard, a, { items: !page.parentId });
  const { share } = opened;
  const now = ctx.clock.now();
  const view: ShareView = {
    share_status: opened.status,
    share_status_text: SHARE_STATUS_TEXT[opened.status],
    share_id: share && opened.status !== SHARE_STATUS.NOT_FOUND ? share.id : a.shareId,
    title: '',
    pass_code_token: opened.token,
    user_info: { user_id: '', nickname: '' },
    create_time: '',
    expiration_at: '',
    expiration_left_seconds: '',
    ancestors: [],
    files: [],
    next_page_token: '',
    is_owner: opened.isOwner,
  };
  if (opened.status !== SHARE_STATUS.OK || !share) return view;

  const present = (r: FileRow): SharedFile => presentSharedFile(r, { retentionMs: 0 });
  Object.assign(view, {
    title: share.title,
    // A visitor needs a name to trust, not an id to look the owner up by.
    user_info: { user_id: '', nickname: opened.ownerName },
    create_time: toRfc3339(share.created_time),
    expiration_at: share.expires_at === null ? '-1' : toRfc3339(share.expires_at),
    expiration_left_seconds: expirationLeft(share.expires_at, now).seconds,
  });
  if (page.parentId) {
    const { file, chain } = await requireInShare(ctx.db, share, page.parentId, opened.rootIds);
    if (file.kind !== FOLDER_KIND) throw badInput('parent_id is not a folder.');
    const listed = await listFilesPage(ctx, {
      userId: share.user_id,
      parentId: file.id,
      filters: { trashed: false, phases: [PHASE.COMPLETE] },
      order: page.order,
      limit: page.limit,
      pageToken: page.pageToken,
    });
    view.ancestors = chain.map(presentBreadcrumb);
    view.files = listed.rows.filter((r) => !r.sensitive).map(present);
    view.next_page_token = listed.nextPageToken;
  } else {
    view.files = opened.roots.map(present);
    // One visit is one look at the share's front page by someone other than its owner.
    if (!opened.isOwner && !page.pageToken) await bumpShareCount(ctx.db, share.id, 'view_count');
  }
  return view;
}

/** One file of an open share, with a download link that dies with the share. */
export async function shareFileInfo(
  ctx: AppContext,
  guard: PassCodeGuard,
  a: ShareAccess,
  fileId: string,
  opts: { play: boolean; onQueued?: () => void } = { play: false },
): Promise<SharedFile> {
  const { share, rootIds } = await requireOpen(ctx, guard, a, { items: false });
  const { file } = await requireInShare(ctx.db, share, fileId, rootIds);
  const link = file.kind === FOLDER_KIND ? '' : signShareContentLink(ctx, share, file.id, a.callerId ?? undefined);
  const presented = { ...presentSharedFile(file, { retentionMs: 0 }), web_content_link: link };
  // A video or song: how this visitor may play it (the whole of it, or a preview).
  const media = link ? await shareFileMedia(ctx, share, file, { id: a.callerId, contentLink: link }, opts) : null;
  return media ? { ...presented, params: media.params, medias: media.medias } : presented;
}

/**
 * Saves items of an open share (all of them by default) into the caller's folder: metadata only, the stored bytes
 * are shared and counted against the caller's quota. Returns the ids of the new top-level items.
 */
export async function restoreFromShare(
  ctx: AppContext,
  guard: PassCodeGuard,
  a: ShareAccess & { callerId: string },
  input: { fileIds?: string[]; parentId: string },
): Promise<{ file_ids: string[] }> {
  const { share, roots, rootIds } = await requireOpen(ctx, guard, a, { items: true });
  // The owner's own saves are not counted against the limit they set for others.
  if (share.user_id !== a.callerId && restoresUsedUp(share)) {
    throw new HttpError(403, 'permission_denied', SHARE_STATUS_TEXT.MAX_RESTORE_COUNT, [{ share_status: SHARE_STATUS.MAX_RESTORE_COUNT }]);
  }
  const ids = [...new Set(input.fileIds?.length ? input.fileIds : roots.map((r) => r.id))];
  const fileIds = await ctx.db.transaction().execute(async (trx) => {
    const picked = await Promise.all(ids.map((id) => requireInShare(trx, share, id, rootIds)));
    // An item inside another picked item comes along with it.
    const chosen = picked.filter(({ chain }) => !chain.slice(0, -1).some((r) => ids.includes(r.id))).map((p) => p.file);
    await requireTargetFolder(trx, a.callerId, input.parentId);
    const rows = await subtreeRows(
      trx,
      share.user_id,
      chosen.map((r) => r.id),
      true,
    );
    if (rows.some((r) => r.sensitive)) throw new HttpError(403, 'sensitive_resource', SHARE_STATUS_TEXT.SENSITIVE_RESOURCE);
    const newIds = await insertCopies(trx, { rows, roots: chosen, toUserId: a.callerId, targetId: input.parentId, now: ctx.clock.now() });
    await bumpShareCount(trx, share.id, 'restore_count');
    return newIds;
  });
  return { file_ids: fileIds };
}
