/**
 * Reconciliation in a bucket: temporary keys of writes that never finished, and blob objects nothing keeps, each
 * removed only once older than the grace period (by the object's Last-Modified), so writes in flight are never touched.
 */
import type { S3 } from '@aws-sdk/client-s3';
import { isContentHash } from './blob-store.js';
import { BLOB_PREFIX, TMP_PREFIX, type S3BlobStore } from './s3-blob-store.js';

const UPLOAD_PREFIX = 'uploads/';

/** What reconciling tus's uploads needs of their store (uploads/s3-upload-store.ts). */
export interface UploadsInBucket {
  /** The SDK client without any key prefix. */
  raw: S3;
  bucketName: string;
  /** The multipart upload ids at content keys of these (live) uploads. */
  contentUploadIds(ids: string[]): Promise<Set<string>>;
}

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

/**
 * What tus uploads that no longer exist left (a process that died before forgetting them), once older than the grace
 * period: keys under uploads/, their unfinished multipart uploads there, and those at content keys (an upload that
 * declared its hash gathers at `blobs/…/<hash>`; one is kept while the upload whose info names it lives). `live` says
 * which upload ids still have their row. Counts what it removed.
 */
export async function reconcileUploads(store: UploadsInBucket, now: number, graceMs: number, live: (ids: string[]) => Promise<Set<string>>): Promise<number> {
  const { raw: client, bucketName: bucket } = store;
  const idOf = (key: string) => key.slice(UPLOAD_PREFIX.length).split('.')[0]!;
  const old = (t: Date | undefined) => now - (t?.getTime() ?? now) >= graceMs;
  let removed = 0;
  // Content-key multipart uploads of live uploads, named by the info objects listed on the way.
  const infos: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.listObjectsV2({ Bucket: bucket, Prefix: UPLOAD_PREFIX, ContinuationToken: token });
    infos.push(...(page.Contents ?? []).filter((o) => o.Key!.endsWith('.info')).map((o) => idOf(o.Key!)));
    const stale = (page.Contents ?? []).filter((o) => old(o.LastModified)).map((o) => o.Key!);
    const alive = await live([...new Set(stale.map(idOf))]);
    for (const key of stale.filter((k) => !alive.has(idOf(k)))) {
      await client.deleteObject({ Bucket: bucket, Key: key });
      removed++;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  let kept: Set<string> | null = null;
  for (const prefix of [UPLOAD_PREFIX, BLOB_PREFIX]) {
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      const page = await client.listMultipartUploads({ Bucket: bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: idMarker });
      const stale = (page.Uploads ?? []).filter((u) => old(u.Initiated));
      if (prefix === UPLOAD_PREFIX) {
        const alive = await live([...new Set(stale.map((u) => idOf(u.Key!)))]);
        for (const u of stale.filter((x) => !alive.has(idOf(x.Key!)))) {
          await client.abortMultipartUpload({ Bucket: bucket, Key: u.Key!, UploadId: u.UploadId! });
          removed++;
        }
      } else if (stale.length > 0) {
        kept ??= await store.contentUploadIds([...(await live([...new Set(infos)]))]);
        for (const u of stale.filter((x) => !kept!.has(x.UploadId!))) {
          await client.abortMultipartUpload({ Bucket: bucket, Key: u.Key!, UploadId: u.UploadId! });
          removed++;
        }
      }
      [keyMarker, idMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (keyMarker);
  }
  return removed;
}
