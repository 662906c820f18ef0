/** files:batchMove and files:batchCopy, and WebDAV's MOVE and COPY (one item under a name of its own). A copy costs metadata only: the blobs are shared and counted. */
import { extensionOf, FOLDER_KIND } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { addManyBlobRefs } from '../storage/blobs.repository.js';
import { ancestorChain, freeName, inChunks, nameTaken, requireFiles, requireTargetFolder, ROOT_ID, subtreeRows } from './files.repository.js';
import { requireRoom } from '../quotas/storage-room.js';
import { recordEvent } from '../events/events.repository.js';
import { validName } from './names.policy.js';
import { isUniqueViolation } from '../db/unique-violation.js';

/** Refuses putting a folder inside itself or one of its descendants. */
async function refuseCycles(db: Db, userId: string, rows: FileRow[], targetId: string): Promise<void> {
  if (targetId === ROOT_ID) return;
  const above = new Set((await ancestorChain(db, userId, targetId)).map((r) => r.id));
  const bad = rows.find((r) => r.kind === FOLDER_KIND && above.has(r.id));
  if (bad) throw badInput(`"${bad.name}" cannot be put inside itself.`);
}

async function liveSources(db: Db, userId: string, ids: string[]): Promise<FileRow[]> {
  const rows = await requireFiles(db, userId, ids);
  const trashed = rows.find((r) => r.trashed);
  if (trashed) throw new HttpError(400, 'file_in_recycle_bin', `"${trashed.name}" is in the trash.`);
  return rows;
}

export async function moveFiles(ctx: AppContext, userId: string, ids: string[], targetId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await liveSources(trx, userId, ids);
    await requireTargetFolder(trx, userId, targetId);
    await refuseCycles(trx, userId, rows, targetId);
    const now = ctx.clock.now();
    for (const row of rows) {
      if (row.parent_id === targetId) continue;
      const name = await freeName(trx, userId, targetId, row.name, row.id);
      await trx.updateTable('files').set({ parent_id: targetId, name, changed_time: now }).where('id', '=', row.id).execute();
    }
  });
}

const duplicated = (name: string) => new HttpError(409, 'file_duplicated_name', `A file or folder named "${name}" already exists here.`);

/** Moves one item into `targetId` under `rawName` (a move and a rename at once, as WebDAV's MOVE asks); no suffix on a clash. */
export async function moveAs(ctx: AppContext, userId: string, id: string, targetId: string, rawName: string): Promise<void> {
  const name = validName(rawName);
  await ctx.db.transaction().execute(async (trx) => {
    const [row] = await liveSources(trx, userId, [id]);
    await requireTargetFolder(trx, userId, targetId);
    await refuseCycles(trx, userId, [row!], targetId);
    if (await nameTaken(trx, userId, targetId, name, row!.id)) throw duplicated(name);
    const now = ctx.clock.now();
    const renamed = name !== row!.name;
    const ext = extensionOf(name);
    const changes = { parent_id: targetId, name, changed_time: now, ...(renamed ? { modified_time: now, ...(row!.kind === FOLDER_KIND ? {} : { file_extension: ext ? `.${ext}` : '' }) } : {}) };
    try {
      await trx.updateTable('files').set(changes).where('id', '=', row!.id).where('user_id', '=', userId).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicated(name);
      throw err;
    }
    if (renamed) await recordEvent(trx, userId, 'TYPE_UPDATE', { ...row!, ...changes }, now);
  });
}

/**
 * Copies one item into `targetId` under `rawName` (WebDAV's COPY); `shallow` copies a folder without its contents.
 * `alongside` runs in the same transaction once the copy exists (WebDAV's dead properties: all or nothing with it).
 * Returns the copy's id.
 */
export async function copyAs(
  ctx: AppContext,
  userId: string,
  id: string,
  targetId: string,
  rawName: string,
  shallow = false,
  alongside?: (trx: Db, copyId: string) => Promise<void>,
): Promise<string> {
  const name = validName(rawName);
  return ctx.db.transaction().execute(async (trx) => {
    const roots = await liveSources(trx, userId, [id]);
    await requireTargetFolder(trx, userId, targetId);
    await refuseCycles(trx, userId, roots, targetId);
    if (await nameTaken(trx, userId, targetId, name)) throw duplicated(name);
    const rows = shallow ? roots : await subtreeRows(trx, userId, [id], true);
    const [copyId] = await insertCopies(trx, { rows, roots, toUserId: userId, targetId, now: ctx.clock.now(), rootName: name });
    await alongside?.(trx, copyId!);
    return copyId!;
  });
}

export async function copyFiles(ctx: AppContext, userId: string, ids: string[], targetId: string): Promise<string[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const roots = await liveSources(trx, userId, ids);
    await requireTargetFolder(trx, userId, targetId);
    await refuseCycles(trx, userId, roots, targetId);
    const rows = await subtreeRows(trx, userId, roots.map((r) => r.id), true);
    return insertCopies(trx, { rows, roots, toUserId: userId, targetId, now: ctx.clock.now() });
  });
}

const SAVED_FROM_SHARE = JSON.stringify({ platform: 'share' });

/**
 * Writes copies of `rows` (the live subtrees of `roots`, from any account) into `toUserId`'s folder `targetId`, and
 * counts the shared blobs once more: metadata only, no byte is copied. Refuses when the copy would pass the quota.
 * Returns the ids of the copied roots, in the order of `roots`.
 */
export async function insertCopies(
  trx: Db,
  input: { rows: FileRow[]; roots: FileRow[]; toUserId: string; targetId: string; now: number; rootName?: string },
): Promise<string[]> {
  const { rows, roots, toUserId: userId, targetId, now } = input;
  const added = rows.reduce((n, r) => n + (r.kind === FOLDER_KIND ? 0 : r.size), 0);
  // Also keeps concurrent copies into one account from picking the same free names (see roomFor).
  await requireRoom(trx, userId, added, now, 'There is not enough storage space for this copy.');
  const newIds = new Map(rows.map((r) => [r.id, newId()]));
  const rootIds = new Set(roots.map((r) => r.id));
  const copies: FileRow[] = [];
  const rootCopies: FileRow[] = [];
  for (const r of rows) {
    const isRoot = rootIds.has(r.id);
    const copy: FileRow = {
      ...r,
      id: newIds.get(r.id)!,
      user_id: userId,
      parent_id: isRoot ? targetId : newIds.get(r.parent_id)!,
      // Another account's copy carries nothing private of the owner's (where a download came from, for one): only that
      // it was saved from a share.
      params: r.user_id === userId ? r.params : r.kind === FOLDER_KIND ? '{}' : SAVED_FROM_SHARE,
      name: isRoot ? (input.rootName ?? (await freeName(trx, userId, targetId, r.name))) : r.name,
      file_extension: isRoot && input.rootName && r.kind !== FOLDER_KIND ? (extensionOf(input.rootName) ? `.${extensionOf(input.rootName)}` : '') : r.file_extension,
      star: 0,
      star_time: null,
      created_time: now,
      modified_time: now,
      changed_time: now,
    };
    copies.push(copy);
    if (isRoot) rootCopies.push(copy);
  }
  await inChunks(copies, 200, (chunk) => trx.insertInto('files').values(chunk).execute());
  const perHash = new Map<string, { size: number; n: number }>();
  for (const c of copies) {
    if (!c.hash) continue;
    const e = perHash.get(c.hash) ?? { size: c.size, n: 0 };
    e.n++;
    perHash.set(c.hash, e);
  }
  await addManyBlobRefs(trx, perHash, now);
  for (const c of rootCopies) await recordEvent(trx, userId, 'TYPE_CREATE', c, now);
  return roots.map((r) => newIds.get(r.id)!);
}
