/**
 * Reconciliation in a bucket: temporary keys of writes that never finished, and blob objects nothing keeps, each
 * removed only once older than the grace period (by the object's Last-Modified), so writes in flight are never touched.
 */
import { isContentHash } from './blob-store.js';
import { BLOB_PREFIX, TMP_PREFIX, type S3BlobStore } from './s3-blob-store.js';

/**
 * One pass over tmp/ and blobs/; `unkept` answers which of the given hashes neither a blob row nor anything else keeps.
 * Counts what it removed.
 */
export async function reconcileS3(store: S3BlobStore, now: number, graceMs: number, unkept: (hashes: string[]) => Promise<string[]>): Promise<{ parts: number; blobs: number }> {
  const out = { parts: 0, blobs: 0 };
  for await (const page of store.list(TMP_PREFIX)) {
    for (const e of page) {
      if (now - e.lastModified < graceMs) continue;
      await store.deleteTemporary(e.key);
      out.parts++;
    }
  }
  for await (const page of store.list(BLOB_PREFIX)) {
    const old = page
      .filter((e) => now - e.lastModified >= graceMs)
      .map((e) => ({ key: e.key, hash: e.key.slice(e.key.lastIndexOf('/') + 1) }))
      // Only keys of the store's own layout: anything else in the bucket is not ours to judge.
      .filter((e) => isContentHash(e.hash) && store.keyOf(e.hash) === e.key)
      .map((e) => e.hash);
    for (const h of await unkept(old)) {
      await store.delete(h);
      out.blobs++;
    }
  }
  return out;
}
