/**
 * What the S3 upload store (s3-upload-store.ts) reads and writes in the bucket beside tus's own calls: the hasher
 * state `<id>.b3`, the size of a finished object, whether the tail the state names is the bucket's, and the parts of
 * a multipart upload at a content key with its completion. `client` puts keys under uploads/; `raw` takes them whole.
 */
import type { Part, S3 } from '@aws-sdk/client-s3';
import type { S3BlobStore } from '../storage/s3-blob-store.js';
import { isNotFound, type SavedState } from './s3-upload-state.js';

export async function saveState(client: S3, bucket: string, id: string, state: SavedState): Promise<void> {
  await client.putObject({ Bucket: bucket, Key: `${id}.b3`, Body: JSON.stringify(state) });
}

/** The hasher state saved after the last write, or null before the first. */
export async function savedState(client: S3, bucket: string, id: string): Promise<SavedState | null> {
  try {
    const res = await client.getObject({ Bucket: bucket, Key: `${id}.b3` });
    return JSON.parse(await res.Body!.transformToString()) as SavedState;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The size of the object at `key`, or null when there is none. */
export async function objectSize(client: S3, bucket: string, key: string): Promise<number | null> {
  try {
    return (await client.headObject({ Bucket: bucket, Key: key })).ContentLength ?? 0;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** Whether the tail (`<id>.part`) the saved state names is the one in the bucket. */
export async function tailIsSaved(client: S3, bucket: string, id: string, saved: SavedState | null): Promise<boolean> {
  if (!saved?.tail) return false;
  try {
    const head = await client.headObject({ Bucket: bucket, Key: `${id}.part` });
    return head.ETag === saved.tail.etag && head.ContentLength === saved.tail.size;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Every part stored so far in the multipart upload `UploadId` at `key`, in order. */
export async function listContentParts(raw: S3, bucket: string, key: string, UploadId: string | undefined): Promise<Part[]> {
  const parts: Part[] = [];
  let marker: string | undefined;
  do {
    const page = await raw.listParts({ Bucket: bucket, Key: key, UploadId, PartNumberMarker: marker });
    parts.push(...(page.Parts ?? []));
    marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
  } while (marker);
  return parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
}

/**
 * Completes the multipart upload at its content key with `parts` when the digest is the hash (and the content is not
 * stored already), else drops it.
 */
export async function settleContent(
  raw: S3,
  blobs: S3BlobStore,
  at: { bucket: string; key: string; uploadId: string | undefined },
  hash: string,
  digest: string,
  parts: Part[],
): Promise<void> {
  const { bucket: Bucket, key: Key, uploadId: UploadId } = at;
  if (digest === hash && !(await blobs.has(hash))) {
    await raw.completeMultipartUpload({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts.map((p) => ({ ETag: p.ETag, PartNumber: p.PartNumber })) } });
  } else {
    await raw.abortMultipartUpload({ Bucket, Key, UploadId });
  }
}
