/** Reference counts of blobs, changed in the same transaction as the file rows that point at them. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { BlobStore } from './blob-store.js';

/** Adds `count` references to a blob, registering it on first use. */
export async function addBlobRefs(db: Db, hash: string, size: number, count: number, now: number): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, size, cid: '', ref_count: count, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('hash').doUpdateSet({ ref_count: sql`blobs.ref_count + ${count}`, updated_at: now }),
    )
    .execute();
}

/** Adds references to many blobs at once (hash → size and count), a few statements for thousands of blobs. */
export async function addManyBlobRefs(db: Db, refs: Map<string, { size: number; n: number }>, now: number): Promise<void> {
  const rows = [...refs].map(([hash, { size, n }]) => ({ hash, size, cid: '', ref_count: n, created_at: now, updated_at: now }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('blobs')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.column('hash').doUpdateSet({ ref_count: sql`blobs.ref_count + excluded.ref_count`, updated_at: now }))
      .execute();
  }
}

/** Drops references: `counts` maps hash → how many file rows stopped pointing at it. */
export async function releaseBlobRefs(db: Db, counts: Map<string, number>, now: number): Promise<void> {
  for (const [hash, n] of counts) {
    await db
      .updateTable('blobs')
      .set({ ref_count: sql`ref_count - ${n}`, updated_at: now })
      .where('hash', '=', hash)
      .execute();
  }
}

/**
 * Deletes blobs nobody references any more, and answers their hashes. The row goes first (in its own statement, only
 * while still unreferenced), the bytes after, so a crash in between leaves at most an orphan file.
 * `graceMs` keeps freshly released blobs a while for uploads racing to reuse them.
 */
export async function collectGarbageBlobs(db: Db, store: BlobStore, now: number, graceMs: number): Promise<string[]> {
  const candidates = await db
    .selectFrom('blobs')
    .select('hash')
    .where('ref_count', '<=', 0)
    .where('updated_at', '<', now - graceMs)
    .limit(1000)
    .execute();
  const removed: string[] = [];
  for (const { hash } of candidates) {
    const res = await db.deleteFrom('blobs').where('hash', '=', hash).where('ref_count', '<=', 0).executeTakeFirst();
    if (Number(res.numDeletedRows) === 1) {
      await store.delete(hash);
      removed.push(hash);
    }
  }
  return removed;
}

/** Records the sample id of a blob (computed once, when its bytes first arrive). */
export async function setBlobCid(db: Db, hash: string, cid: string): Promise<void> {
  await db.updateTable('blobs').set({ cid }).where('hash', '=', hash).where('cid', '=', '').execute();
}

/** A stored blob with these bytes, if any. */
export function findBlob(db: Db, hash: string) {
  return db.selectFrom('blobs').selectAll().where('hash', '=', hash).executeTakeFirst();
}
