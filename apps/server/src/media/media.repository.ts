/** Queries on the media tables. Everything is keyed by content hash: files with the same bytes share it. */
import { sql } from 'kysely';
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { MediaJobRow, MediaRenditionRow } from '../db/schema.js';
import { addBlobRefs, releaseBlobRefs } from '../storage/blobs.repository.js';
import type { MediaProbe } from './media-probe.js';
import type { RenditionPlan, ThumbnailSize } from './playback.policy.js';

export interface StoredProbe {
  probe: MediaProbe | null;
  error: string;
}

/** The remembered probe of some content, if it was probed before. */
export async function findProbe(db: Db, hash: string, kind: string): Promise<StoredProbe | undefined> {
  const row = await db.selectFrom('media_info').select(['info', 'error']).where('hash', '=', hash).where('kind', '=', kind).executeTakeFirst();
  if (!row) return undefined;
  return { probe: row.error ? null : (JSON.parse(row.info) as MediaProbe), error: row.error };
}

/** Of the given audio contents, those whose remembered probe found cover art (unprobed ones are not known to). */
export async function audioWithCover(db: Db, hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(hashes.filter(Boolean))];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('media_info').select(['hash', 'info']).where('kind', '=', 'audio').where('error', '=', '').where('hash', 'in', unique.slice(i, i + 500)).execute();
    for (const r of rows) if ((JSON.parse(r.info) as { hasCover?: boolean }).hasCover) found.add(r.hash);
  }
  return found;
}

export async function saveProbe(db: Db, hash: string, kind: string, result: StoredProbe, now: number): Promise<void> {
  await db
    .insertInto('media_info')
    .values({ hash, kind, info: JSON.stringify(result.probe ?? {}), error: result.error, created_at: now })
    .onConflict((oc) => oc.columns(['hash', 'kind']).doNothing())
    .execute();
}

export interface ThumbnailRow {
  thumb_hash: string;
  mime_type: string;
  width: number;
  height: number;
}

export function findThumbnail(db: Db, hash: string, size: ThumbnailSize): Promise<ThumbnailRow | undefined> {
  return db
    .selectFrom('media_thumbnails')
    .select(['thumb_hash', 'mime_type', 'width', 'height'])
    .where('hash', '=', hash)
    .where('size', '=', size)
    .executeTakeFirst();
}

export interface NewThumbnail extends ThumbnailRow {
  size: ThumbnailSize;
  bytes: number;
}

/**
 * Records the thumbnails of some content and references their blobs, in one transaction; a size another process
 * recorded first is kept and adds no reference.
 */
export async function saveThumbnails(db: Db, hash: string, thumbs: NewThumbnail[], now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const t of thumbs) {
      const inserted = await trx
        .insertInto('media_thumbnails')
        .values({ hash, size: t.size, thumb_hash: t.thumb_hash, mime_type: t.mime_type, width: t.width, height: t.height, created_at: now })
        .onConflict((oc) => oc.columns(['hash', 'size']).doNothing())
        .returning('hash')
        .executeTakeFirst();
      if (inserted && t.thumb_hash) await addBlobRefs(trx, t.thumb_hash, t.bytes, 1, now);
    }
  });
}

export function findJob(db: Db, hash: string): Promise<MediaJobRow | undefined> {
  return db.selectFrom('media_jobs').selectAll().where('hash', '=', hash).executeTakeFirst();
}

export function listRenditions(db: Db, hash: string): Promise<MediaRenditionRow[]> {
  return db.selectFrom('media_renditions').selectAll().where('hash', '=', hash).orderBy('position').execute();
}

export function findRendition(db: Db, hash: string, name: string): Promise<MediaRenditionRow | undefined> {
  return db.selectFrom('media_renditions').selectAll().where('hash', '=', hash).where('name', '=', name).executeTakeFirst();
}

/**
 * Queues a transcode of some content for `userId` (whose play or upload asked for it) unless one exists; `failed`
 * records a job that cannot run (unreadable content).
 */
export async function enqueueJob(db: Db, hash: string, now: number, userId: string, failed?: string): Promise<boolean> {
  const inserted = await db
    .insertInto('media_jobs')
    .values({
      hash,
      phase: failed ? PHASE.ERROR : PHASE.PENDING,
      progress: 0,
      message: failed ?? '',
      lease_id: '',
      attempts: 0,
      created_time: now,
      updated_time: now,
      user_id: userId,
    })
    .onConflict((oc) => oc.column('hash').doNothing())
    .returning('hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Puts a failed job back in the queue (its unfinished renditions too); false when it had not failed. */
export async function retryJob(db: Db, hash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('media_jobs')
    .set({ phase: PHASE.PENDING, message: '', attempts: 0, progress: 0, created_time: now, updated_time: now })
    .where('hash', '=', hash)
    .where('phase', '=', PHASE.ERROR)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await db.updateTable('media_renditions').set({ phase: PHASE.PENDING, message: '', progress: 0 }).where('hash', '=', hash).where('phase', '=', PHASE.ERROR).execute();
  return true;
}

/** Writes the planned renditions of some content (once; a plan already there is kept). */
export async function planRenditions(db: Db, hash: string, plan: RenditionPlan[], hasAudio: boolean, now: number): Promise<void> {
  for (const r of plan) {
    await db
      .insertInto('media_renditions')
      .values({
        hash,
        name: r.name,
        position: r.position,
        phase: PHASE.PENDING,
        progress: 0,
        message: '',
        width: r.width,
        height: r.height,
        bandwidth: r.bandwidth,
        has_audio: hasAudio ? 1 : 0,
        scratch: '',
        playlist: '',
        segments: '{}',
        updated_time: now,
      })
      .onConflict((oc) => oc.columns(['hash', 'name']).doNothing())
      .execute();
  }
}

export interface SegmentBlob {
  hash: string;
  size: number;
}

/** Parses a rendition's segment map (local name → blob). */
export function segmentsOf(row: Pick<MediaRenditionRow, 'segments'>): Record<string, SegmentBlob> {
  try {
    return JSON.parse(row.segments) as Record<string, SegmentBlob>;
  } catch {
    return {};
  }
}

/**
 * Media rows of content that is no longer stored (its blob row was collected): dropped, and the blobs they made
 * released so the blob collector removes them too.
 */
export async function dropOrphanedMedia(db: Db, now: number): Promise<number> {
  const orphanHashes = (table: 'media_info' | 'media_thumbnails' | 'media_jobs' | 'media_renditions') =>
    db
      .selectFrom(table)
      .select('hash')
      .distinct()
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('blobs').select('blobs.hash').whereRef('blobs.hash', '=', sql.ref(`${table}.hash`)))))
      .limit(500)
      .execute();
  const hashes = new Set<string>();
  for (const t of ['media_info', 'media_thumbnails', 'media_jobs', 'media_renditions'] as const) {
    for (const r of await orphanHashes(t)) hashes.add(r.hash);
  }
  for (const hash of hashes) {
    await db.transaction().execute(async (trx) => {
      const released = new Map<string, number>();
      const thumbs = await trx.selectFrom('media_thumbnails').select('thumb_hash').where('hash', '=', hash).execute();
      for (const t of thumbs) if (t.thumb_hash) released.set(t.thumb_hash, (released.get(t.thumb_hash) ?? 0) + 1);
      const renditions = await trx.selectFrom('media_renditions').select('segments').where('hash', '=', hash).execute();
      for (const r of renditions) {
        for (const s of Object.values(segmentsOf(r))) released.set(s.hash, (released.get(s.hash) ?? 0) + 1);
      }
      await releaseBlobRefs(trx, released, now);
      await trx.deleteFrom('media_thumbnails').where('hash', '=', hash).execute();
      await trx.deleteFrom('media_renditions').where('hash', '=', hash).execute();
      // A job still running for gone content finds its rows missing and stops writing.
      await trx.deleteFrom('media_jobs').where('hash', '=', hash).execute();
      await trx.deleteFrom('media_info').where('hash', '=', hash).execute();
    });
  }
  return hashes.size;
}
