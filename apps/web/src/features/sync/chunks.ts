/**
 * How the local copy lays out its rows: in chunks, not one IndexedDB record per file. IndexedDB's cost is per record
 * (a request, a copy, index keys), so a first sync of 100,000 files as 100,000 puts spent ~10 s there; as ~200 chunk
 * writes it spends well under one (bench/README.md, "local-store.bench.ts").
 *
 * A folder's rows live on one of 32 shelves (a hash of the folder's id), in chunks of up to 500 rows filled in the
 * order rows arrive, so a sync page of 500 rows writes one or two chunks of a large folder, or a few small ones.
 * Opening a folder reads its shelf (the folder's rows and about a 32nd of the small folders'); the starred rows are
 * found through the chunks that hold one, and stale rows through the chunks whose oldest row is older than a sync.
 * Each chunk has a twin record of its ids only, so which chunk holds a row can be known without reading the rows.
 */
import type { LocalFile, StoredFile } from './stored-row';

export const SHELVES = 32;
/**
 * Rows in a chunk: a change rewrites its chunk (a copy in and out of IndexedDB of a few ms at this size), and a sync
 * page of 500 rows of a large folder fills one.
 */
export const CHUNK_ROWS = 500;

/** A chunk of rows; its key is [user_id, shelf, n]. */
export interface Chunk {
  user_id: string;
  shelf: number;
  n: number;
  rows: StoredFile[];
  /** How many of its rows are starred; left out when none, so the `starred` index lists only chunks with a star. */
  stars?: number;
  /** The oldest `local_sync_timestamp` among its rows (the `oldest` index finds the chunks a full sync left stale). */
  oldest: number;
}

/** A chunk's ids, newline-joined (ids are url-safe), under the same key. */
export interface ChunkIds {
  user_id: string;
  shelf: number;
  n: number;
  ids: string;
}

export type ChunkKey = [string, number, number];

/** The shelf of a folder's rows: FNV-1a of its id. */
export function shelfOf(parentId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < parentId.length; i++) h = Math.imul(h ^ parentId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHELVES;
}

/** A chunk record with its stars and oldest row worked out. */
export function sealChunk(user_id: string, shelf: number, n: number, rows: StoredFile[]): Chunk {
  let stars = 0;
  let oldest = Infinity;
  for (const r of rows) {
    if (r.star === 1) stars++;
    if (r.local_sync_timestamp < oldest) oldest = r.local_sync_timestamp;
  }
  const chunk: Chunk = { user_id, shelf, n, rows, oldest: rows.length ? oldest : 0 };
  if (stars) chunk.stars = stars;
  return chunk;
}

export const idsOf = (c: Chunk): ChunkIds => ({ user_id: c.user_id, shelf: c.shelf, n: c.n, ids: c.rows.map((r) => r.id).join('\n') });

export const splitIds = (ids: string): string[] => (ids ? ids.split('\n') : []);

/** Rows packed into chunks by user and shelf (a copy kept in an earlier layout, moved over whole). */
export function packRows(rows: StoredFile[]): Chunk[] {
  const shelves = new Map<string, StoredFile[]>();
  for (const r of rows) {
    const key = `${r.user_id}\n${shelfOf(r.parent_id)}`;
    const list = shelves.get(key);
    if (list) list.push(r);
    else shelves.set(key, [r]);
  }
  const out: Chunk[] = [];
  for (const list of shelves.values()) {
    const { user_id, parent_id } = list[0]!;
    for (let i = 0; i < list.length; i += CHUNK_ROWS) out.push(sealChunk(user_id, shelfOf(parent_id), i / CHUNK_ROWS, list.slice(i, i + CHUNK_ROWS)));
  }
  return out;
}

/** Whether a stored row is a row of a folder, or starred, for a user. */
export const rowIn = (userId: string, parentId: string | null) => (r: StoredFile | LocalFile) =>
  r.user_id === userId && (parentId === null ? r.star === 1 : r.parent_id === parentId);
