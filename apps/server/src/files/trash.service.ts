/** Trash, restore, delete forever, empty trash, and the purge of items past the retention period. */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
import { deleteEventsOfFiles, recordEvent } from '../events/events.repository.js';
import { badInput } from '../http/errors.js';
import { forgetSources } from '../offline/offline-sources.js';
import { collectGarbageBlobs, releaseBlobRefs } from '../storage/blobs.repository.js';
import { findFile, freeName, inChunks, requireFiles, ROOT_ID, subtreeIds, userFilesIn } from './files.repository.js';

const CHUNK = 500;

/** files:batchTrash: each item and its live contents go to the trash together. */
export async function trashFiles(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await requireFiles(trx, userId, ids);
    const now = ctx.clock.now();
    for (const root of rows) {
      const current = await findFile(trx, userId, root.id);
      if (!current || current.trashed) continue; // already trashed, alone or with a folder above
      await trashTree(trx, userId, root, now);
    }
  });
}

/** One live item and its live contents go to the trash together, inside the caller's transaction. */
export async function trashTree(trx: Db, userId: string, root: FileRow, now: number): Promise<void> {
  const members = await subtreeIds(trx, userId, [root.id], true);
  await inChunks(members, CHUNK, (chunk) =>
    trx
      .updateTable('files')
      .set({ trashed: 1, trash_group: root.id, trashed_at: now, changed_time: now })
      .where(userFilesIn(userId, chunk))
      .where('trashed', '=', 0)
      .execute(),
  );
  // WebDAV dead properties are kept outside the quota: they end when their file leaves the drive, not with the trash.
  await inChunks(members, CHUNK, (chunk) => trx.deleteFrom('dav_props').where('user_id', '=', userId).where('file_id', 'in', chunk).execute());
  await recordEvent(trx, userId, 'TYPE_DELETE', root, now);
}

/** files:batchUntrash: an item comes back with what was trashed along with it, to its folder or to the root. */
export async function untrashFiles(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await requireFiles(trx, userId, ids);
    const now = ctx.clock.now();
    for (const row of rows) {
      if (!row.trashed) continue;
      if (row.trash_group !== row.id) {
        throw badInput(`"${row.name}" was trashed with the folder above it; restore that folder instead.`);
      }
      const parent = row.parent_id === ROOT_ID ? null : await findFile(trx, userId, row.parent_id);
      const parentId = parent && !parent.trashed ? parent.id : ROOT_ID;
      const name = await freeName(trx, userId, parentId, row.name, row.id);
      await trx
        .updateTable('files')
        .set({ trashed: 0, trash_group: null, trashed_at: null, changed_time: now })
        .where('user_id', '=', userId)
        .where('trash_group', '=', row.id)
        .where('id', '!=', row.id)
        .execute();
      await trx
        .updateTable('files')
        .set({ trashed: 0, trash_group: null, trashed_at: null, changed_time: now, parent_id: parentId, name })
        .where('id', '=', row.id)
        .execute();
      await recordEvent(trx, userId, 'TYPE_RESTORE', { ...row, name }, now);
    }
  });
}

/** Removes items and everything below them for good, leaving tombstones for sync and releasing blobs. */
async function destroy(db: Db, userId: string, roots: string[], now: number): Promise<number> {
  const ids = await subtreeIds(db, userId, roots);
  const hashes = new Map<string, number>();
  await inChunks(ids, CHUNK, async (chunk) => {
    const rows = await db.selectFrom('files').select(['id', 'parent_id', 'kind', 'hash']).where(userFilesIn(userId, chunk)).execute();
    if (rows.length) {
      await db
        .insertInto('file_tombstones')
        .values(rows.map((r) => ({ file_id: r.id, user_id: userId, parent_id: r.parent_id, kind: r.kind, deleted_time: now })))
        .onConflict((oc) => oc.column('file_id').doNothing())
        .execute();
    }
    await deleteEventsOfFiles(db, userId, chunk);
    // References are released for the rows this transaction deleted: two processes purging the same expired files at
    // once (the hourly job of two workers) must not release one twice.
    const deleted = await db.deleteFrom('files').where(userFilesIn(userId, chunk)).returning('hash').execute();
    for (const r of deleted) if (r.hash) hashes.set(r.hash, (hashes.get(r.hash) ?? 0) + 1);
  });
  await releaseBlobRefs(db, hashes, now);
  return ids.length;
}

/** files:batchDelete */
export async function deleteFiles(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireFiles(trx, userId, ids);
    await destroy(trx, userId, ids, ctx.clock.now());
  });
}

/** files/trash:empty */
export async function emptyTrash(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const roots = await trx.selectFrom('files').select('id').where('user_id', '=', userId).where('trashed', '=', 1).whereRef('trash_group', '=', 'id').execute();
    await destroy(trx, userId, roots.map((r) => r.id), ctx.clock.now());
  });
}

/** Background job: purges trash past the retention period, old tombstones, blobs nobody references and their sources. */
export async function purgeExpired(ctx: AppContext): Promise<{ files: number; blobs: number }> {
  const now = ctx.clock.now();
  const cutoff = now - ctx.config.trashRetentionDays * 86_400_000;
  let files = 0;
  for (;;) {
    const due: Pick<FileRow, 'id' | 'user_id'>[] = await ctx.db
      .selectFrom('files')
      .select(['id', 'user_id'])
      .where('trashed', '=', 1)
      .where('trashed_at', '<', cutoff)
      .whereRef('trash_group', '=', 'id')
      .limit(100)
      .execute();
    if (due.length === 0) break;
    for (const row of due) {
      files += await ctx.db.transaction().execute((trx) => destroy(trx, row.user_id, [row.id], now));
    }
  }
  // Clients that have not synced for this long do a full sync (seed: older than three sync periods).
  await ctx.db.deleteFrom('file_tombstones').where('deleted_time', '<', now - 90 * 86_400_000).execute();
  const gone = await collectGarbageBlobs(ctx.db, ctx.blobs, now, 10 * 60_000);
  await forgetSources(ctx.db, gone);
  return { files, blobs: gone.length };
}
