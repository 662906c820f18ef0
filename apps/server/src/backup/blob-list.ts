/**
 * The blobs a database refers to, and the list of them a backup keeps beside its manifest (`blobs.txt`: one
 * `<hash> <size>` a line, sorted; `-` for a size no row records). Restore reads that list, not the database, so it
 * can copy and check the blobs before it installs a database it could not take back.
 */
import { createHash } from 'node:crypto';
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isContentHash } from '../storage/blob-store.js';

/** Hash → size in bytes, or null where no row records the size. */
export type BlobList = Map<string, number | null>;

export const BLOB_LIST_FILE = 'blobs.txt';

/**
 * Every blob something in the database keeps: files (blob rows with references), thumbnails, rendition segments and
 * what cloud downloads remember by source. Rows left without references wait for the purge and nothing reads them,
 * so they are not listed.
 */
export async function referencedBlobs(db: Kysely<Database>): Promise<BlobList> {
  const out: BlobList = new Map();
  const add = (hash: string, size: number | null) => {
    if (isContentHash(hash) && out.get(hash) == null) out.set(hash, size === null ? null : Number(size));
  };
  for (const r of await db.selectFrom('blobs').select(['hash', 'size']).where('ref_count', '>', 0).execute()) add(r.hash, r.size);
  for (const r of await db.selectFrom('media_thumbnails').select('thumb_hash').where('thumb_hash', '!=', '').execute()) add(r.thumb_hash, null);
  for (const r of await db.selectFrom('offline_sources').select(['hash', 'size']).execute()) add(r.hash, r.size);
  for (const r of await db.selectFrom('media_renditions').select('segments').execute()) {
    for (const seg of Object.values(JSON.parse(r.segments || '{}') as Record<string, { hash?: string; size?: number }>)) {
      if (seg.hash) add(seg.hash, typeof seg.size === 'number' ? seg.size : null);
    }
  }
  return out;
}

/** The list's bytes: sorted, so the same blobs always give the same file (and SHA-256). */
function listText(blobs: BlobList): string {
  return [...blobs]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([hash, size]) => `${hash} ${size ?? '-'}\n`)
    .join('');
}

/** Writes `dir/blobs.txt` (synced, then renamed into place); answers its SHA-256 for the manifest. */
export async function writeBlobList(dir: string, blobs: BlobList): Promise<string> {
  const text = listText(blobs);
  const tmp = join(dir, `${BLOB_LIST_FILE}.next`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, BLOB_LIST_FILE));
  return createHash('sha256').update(text).digest('hex');
}

/** Reads `dir/blobs.txt`, refusing one whose SHA-256 is not the manifest's (a list cut short or edited). */
export async function readBlobList(dir: string, sha256: string): Promise<BlobList> {
  const text = await readFile(join(dir, BLOB_LIST_FILE), 'utf8');
  const got = createHash('sha256').update(text).digest('hex');
  if (got !== sha256) throw new Error(`${join(dir, BLOB_LIST_FILE)} does not match the manifest (SHA-256 ${got}, expected ${sha256}): the backup is damaged`);
  const out: BlobList = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [hash, size] = line.split(' ');
    if (!hash || !isContentHash(hash) || size === undefined) throw new Error(`${BLOB_LIST_FILE}: not a blob line: ${line.slice(0, 100)}`);
    out.set(hash, size === '-' ? null : Number(size));
  }
  return out;
}
