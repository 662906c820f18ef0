/**
 * tus uploads straight into S3 multipart uploads (@tus/s3-store), in the blobs' bucket: each chunk becomes parts of the
 * upload's multipart upload (a tail under S3's 5 MiB minimum waits as `uploads/<id>.part`), so any API process can take
 * the next chunk and nothing is kept on local disk between requests. tus's metadata and the hasher state (`.b3`) live
 * under `uploads/`.
 *  - An upload that declared its hash (the web app and the command line do) is a multipart upload at its content key,
 *    `blobs/ab/cd/<hash>`: the parts are hashed as they are cut, and the multipart upload is completed only once the
 *    digest of every byte matches the name, so finishing copies nothing. Its offset is what the saved state covers
 *    (whole parts, plus a tail whose ETag the state names): parts a failed request stored beyond it are sent again
 *    under the same numbers, so the hash never needs bytes it cannot read back.
 *  - Any other upload gathers under `uploads/<id>`, hashed as the bytes arrive, and the finished object is copied
 *    server-side to its content key.
 */
import type { Readable } from 'node:stream';
import type { Part, S3 } from '@aws-sdk/client-s3';
import type { S3Store } from '@tus/s3-store';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { isContentHash } from '../storage/blob-store.js';
import { ThreadedHasher } from '../storage/threaded-hasher.js';
import { s3ClientConfig, type S3BlobStore } from '../storage/s3-blob-store.js';
import type { S3Config } from '../storage/s3-config.js';
import { sendParts } from './s3-parts.js';
import { KeptHashers, Listings } from './s3-upload-memory.js';
import { listContentParts, objectSize, savedState, saveState, settleContent, tailIsSaved } from './s3-upload-objects.js';
import { contentOffset, isNotFound, loadedHasher, sameState, savedOf, underPrefix, type ContentWrite, type Metadata } from './s3-upload-state.js';
import { reconcileUploads } from '../storage/s3-reconcile.js';
import { hashedStream, type UploadStore } from './upload-store.js';

const MiB = 1024 * 1024;
export const UPLOAD_PREFIX = 'uploads/';
/** Parts in flight (and so in memory) at once across every upload of the process. */
const PARTS_IN_FLIGHT = 4;
/** Running hashers kept between requests (the oldest closed past this); each is a few KiB in the hashing thread. */
const KEPT_HASHERS = 256;

let s3StoreLoaded: Promise<void> | null = null;

/**
 * The S3 upload store. @tus/s3-store brings the AWS SDK with it, so it is loaded here, once a server keeps its blobs in
 * S3, not with the server: HashingS3Store is declared on tus's DataStore and put onto S3Store, its real base, before
 * the first one is made (`super` follows the base the class has when it is called).
 */
export async function createS3UploadStore(blobs: S3BlobStore, cfg: S3Config): Promise<HashingS3Store> {
  s3StoreLoaded ??= import('@tus/s3-store').then(({ S3Store }) => {
    Object.setPrototypeOf(HashingS3Store, S3Store);
    Object.setPrototypeOf(HashingS3Store.prototype, S3Store.prototype);
  });
  await s3StoreLoaded;
  return new HashingS3Store(blobs, cfg);
}

export class HashingS3Store extends (DataStore as unknown as typeof S3Store) implements UploadStore {
  /** Made by createS3UploadStore, which loads the base class first. */
  constructor(
    private readonly blobs: S3BlobStore,
    cfg: S3Config,
  ) {
    // Parts of 8 MiB, at most PARTS_IN_FLIGHT in memory and in flight across the process.
    super({ partSize: 8 * MiB, maxConcurrentPartUploads: PARTS_IN_FLIGHT, s3ClientConfig: { ...s3ClientConfig(cfg), bucket: cfg.bucket } });
    this.raw = this.client;
    this.client = underPrefix(this.client, UPLOAD_PREFIX);
  }

  /** The client without the prefix, for listings (their keys come back whole) and content keys. */
  readonly raw: S3;
  get bucketName(): string {
    return this.bucket;
  }
  /** Running hashers by upload, with the upload offset each stands at: the next request here goes on without `.b3`. */
  private readonly kept = new KeptHashers(KEPT_HASHERS);
  /** What getUpload found, by upload, taken by the write of the same request. */
  private readonly listed = new Listings();
  /** Writes to content keys under way. */
  private readonly writing = new Map<string, ContentWrite>();

  /** The content key an upload is gathered at, or null when it gathers under uploads/. */
  private async contentKey(id: string): Promise<{ key: string; hash: string } | null> {
    const hash = (await this.getMetadata(id)).file.metadata?.blob;
    return hash && isContentHash(hash) ? { key: this.blobs.keyOf(hash), hash } : null;
  }

  /** A declared hash (metadata `blob`) puts the multipart upload at the content key. */
  override async create(upload: Upload): Promise<Upload> {
    const hash = upload.metadata?.blob;
    if (!hash || !isContentHash(hash) || !upload.size) return super.create(upload);
    upload.creation_date = new Date().toISOString();
    const res = await this.raw.createMultipartUpload({ Bucket: this.bucket, Key: this.blobs.keyOf(hash) });
    upload.storage = { type: 's3', path: res.Key!, bucket: this.bucket };
    await this.saveMetadata(upload, res.UploadId!);
    return upload;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // Gone meanwhile (finished and removed by the request before): tus's 404.
    const target = await this.contentKey(id).catch((err: unknown) => {
      throw isNotFound(err) ? ERRORS.FILE_NOT_FOUND : err;
    });
    if (target) return this.writeContent(readable, id, offset, target);
    // Bytes before an offset never change, so a hasher kept here at this very offset has seen exactly them, whichever
    // process wrote in between.
    let hasher = this.kept.take(id, offset)?.hasher ?? null;
    if (!hasher) {
      const saved = await savedState(this.client, this.bucket, id);
      // A write that failed after storing part of its bytes leaves the state behind the offset: the bytes in between
      // cannot be read back from an unfinished multipart upload, so the hash is taken from the finished object instead.
      if (offset !== (saved?.offset ?? 0)) return this.append(readable, id, offset);
      hasher = await loadedHasher(saved);
    }
    try {
      const newOffset = await this.append(hashedStream(readable, hasher), id, offset);
      await saveState(this.client, this.bucket, id, { offset: newOffset, state: await savedOf(hasher) });
      this.kept.keep(id, { offset: newOffset, hasher });
      return newOffset;
    } catch (err) {
      hasher.close();
      throw err;
    }
  }

  /** A write at a content key: the parts are hashed as they are cut (sendParts), the state saved after the last one. */
  private async writeContent(readable: Readable, id: string, offset: number, target: { key: string; hash: string }): Promise<number> {
    const listed = this.listed.take(id);
    let w = this.kept.take(id, offset)?.content ?? null;
    // The kept hasher goes on only from the very state the bucket holds (getUpload read it in this request).
    if (w && listed?.saved !== undefined && !sameState(listed.saved, w)) {
      w.hasher.close();
      w = null;
    }
    if (w) w = { ...w, numbered: false, done: false };
    if (!w) {
      const saved = listed?.saved !== undefined ? listed.saved : await savedState(this.client, this.bucket, id);
      const tailValid = listed?.tailValid ?? (await tailIsSaved(this.client, this.bucket, id, saved));
      if (saved?.digest !== undefined || offset !== contentOffset(saved, tailValid)) throw ERRORS.INVALID_OFFSET;
      w = { ...target, hasher: await loadedHasher(saved), hashed: saved?.offset ?? 0, parts: saved?.parts ?? 0, tail: saved?.tail ?? null, tailValid, done: false };
    }
    this.writing.set(id, w);
    try {
      const newOffset = await this.append(readable, id, offset);
      if (!w.done) {
        await saveState(this.client, this.bucket, id, { offset: w.hashed, state: await savedOf(w.hasher), parts: w.parts, tail: w.tail });
        this.kept.keep(id, { offset: newOffset, hasher: w.hasher, content: { ...w, tailValid: w.tail !== null } });
      } else w.hasher.close();
      return newOffset;
    } catch (err) {
      w.hasher.close();
      throw err;
    } finally {
      this.writing.delete(id);
    }
  }

  /** A request body as parts gathered in memory (s3-parts.ts), hashed in order when the upload is at its content key. */
  override async uploadParts(metadata: Metadata, readStream: Readable, currentPartNumber: number, offset: number): Promise<number> {
    const size = metadata.file.size;
    const w = this.writing.get(metadata.file.id);
    if (w) w.tail = null;
    return sendParts(
      readStream,
      {
        partSize: this.calcOptimalPartSize(size),
        slots: this.partUploadSemaphore,
        isWhole: (length, end) => length >= this.minPartSize || end === size,
        beforeWhole: w
          ? async (bytes, n) => {
              await w.hasher.update(bytes);
              w.hashed += bytes.length;
              w.parts = n;
            }
          : undefined,
        whole: async (bytes, n) => void (await this.uploadPart(metadata, bytes, n)),
        tail: async (bytes) => {
          const etag = await this.uploadIncompletePart(metadata.file.id, bytes as unknown as Readable);
          if (w) w.tail = { etag: etag ?? '', size: bytes.length };
        },
      },
      currentPartNumber,
      offset,
    );
  }

  override async uploadPart(metadata: Metadata, body: Readable | Buffer, partNumber: number): Promise<string> {
    const w = this.writing.get(metadata.file.id);
    if (!w) return super.uploadPart(metadata, body as Buffer, partNumber);
    const res = await this.raw.uploadPart({ Bucket: this.bucket, Key: w.key, UploadId: metadata['upload-id'], PartNumber: partNumber, Body: body });
    return res.ETag!;
  }

  /** At a content key, only the tail the saved state names goes on (one a failed request left is sent again). */
  override async downloadIncompletePart(id: string): Promise<Awaited<ReturnType<S3Store['downloadIncompletePart']>>> {
    const w = this.writing.get(id);
    if (w && !w.tailValid) return undefined;
    const noTail = !w && this.listed.fresh(id)?.noTail;
    this.listed.delete(id);
    if (noTail) return undefined;
    return super.downloadIncompletePart(id);
  }

  /** At a content key: the parts the saved state covers, and those this write sent. Else what getUpload listed, once. */
  override async retrieveParts(id: string, partNumberMarker?: string): Promise<Part[]> {
    const w = this.writing.get(id);
    if (w) {
      // First at the start of the write, where only the number to go on from counts: no listing needed.
      if (!w.numbered) {
        w.numbered = true;
        return w.parts > 0 ? [{ PartNumber: w.parts }] : [];
      }
      return (await listContentParts(this.raw, this.bucket, w.key, (await this.getMetadata(id))['upload-id'])).filter((p) => (p.PartNumber ?? 0) <= w.parts);
    }
    const listed = partNumberMarker === undefined ? this.listed.fresh(id) : null;
    if (listed?.parts) {
      const parts = listed.parts;
      // Once: the listing at the end of a write (to complete the multipart upload) must see the parts it sent.
      delete listed.parts;
      return parts;
    }
    return super.retrieveParts(id, partNumberMarker);
  }

  /**
   * Completing at a content key: only once the digest of every byte is the key's hash (saved first, so a crash
   * between here and the completion finishes from the state); when the content is stored already, or the bytes are
   * not what was declared, the parts are dropped instead and the upload fails on its hash as before.
   */
  override async finishMultipartUpload(metadata: Metadata, parts: Part[]): Promise<string | undefined> {
    const w = this.writing.get(metadata.file.id);
    if (!w) return super.finishMultipartUpload(metadata, parts);
    const digest = await w.hasher.digest();
    await saveState(this.client, this.bucket, metadata.file.id, { offset: w.hashed, state: '', parts: w.parts, tail: null, digest });
    w.done = true;
    await settleContent(this.raw, this.blobs, { bucket: this.bucket, key: w.key, uploadId: metadata['upload-id'] }, w.hash, digest, parts);
    return undefined;
  }

  /**
   * tus's own, noting what it found for the write that follows in the same request (its own listing would ask the
   * bucket again). At a content key the offset is what the saved state covers, no listing needed.
   */
  override async getUpload(id: string): Promise<Upload> {
    let metadata: Metadata;
    try {
      metadata = await this.getMetadata(id);
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    const file = { ...metadata.file, size: metadata.file.size, storage: metadata.file.storage };
    if (await this.contentKey(id)) {
      const saved = await savedState(this.client, this.bucket, id);
      const tailValid = await tailIsSaved(this.client, this.bucket, id, saved);
      this.listed.set(id, { at: Date.now(), saved, tailValid });
      return new Upload({ ...file, offset: saved?.digest !== undefined ? metadata.file.size! : contentOffset(saved, tailValid) });
    }
    let parts: Part[];
    try {
      // Always the bucket's listing: another process may have written since an earlier request here.
      parts = await super.retrieveParts(id);
    } catch (err) {
      // Completed (or aborted) while its info is still there: every byte arrived.
      if (isNotFound(err) && (err as { name?: string }).name !== 'NotFound') return new Upload({ ...file, offset: metadata.file.size! });
      throw err;
    }
    const tail = await this.getIncompletePartSize(id);
    this.listed.set(id, { at: Date.now(), parts, noTail: tail === undefined });
    return new Upload({ ...file, offset: parts.reduce((a, p) => a + (p.Size ?? 0), 0) + (tail ?? 0) });
  }

  /**
   * The tus store's write; an empty PATCH at the end of an upload whose multipart upload is completed already (a client
   * repeating its last request while the first finishes) writes nothing and keeps the offset, as the file store does.
   * One whose upload finished and was removed meanwhile (tus found it a moment before) is told it is gone, a 404.
   */
  private async append(readable: Readable, id: string, offset: number): Promise<number> {
    try {
      return await super.write(readable, id, offset);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const meta = await this.getMetadata(id).catch((e: unknown) => {
        throw isNotFound(e) ? ERRORS.FILE_NOT_FOUND : e;
      });
      if (meta.file.size !== offset) throw err;
      readable.resume();
      return offset;
    }
  }

  async digest(id: string, size: number): Promise<string> {
    const saved = await savedState(this.client, this.bucket, id);
    if (await this.contentKey(id)) {
      if (saved?.digest === undefined) throw new Error(`upload ${id} is not complete`);
      return saved.digest;
    }
    const hasher = new ThreadedHasher();
    try {
      if (saved?.offset === size) {
        await hasher.load(Buffer.from(saved.state, 'base64'));
      } else {
        await this.completed(id);
        const res = await this.client.getObject({ Bucket: this.bucket, Key: id });
        for await (const chunk of res.Body as Readable) await hasher.update(chunk as Buffer);
      }
      return await hasher.digest();
    } finally {
      hasher.close();
    }
  }

  async bytesStored(id: string): Promise<number | null> {
    if (await this.contentKey(id).catch(() => null)) return (await this.getUpload(id)).offset;
    const done = await objectSize(this.client, this.bucket, id);
    if (done !== null) return done;
    try {
      return (await this.getUpload(id)).offset;
    } catch {
      return null;
    }
  }

  async hashedUpTo(id: string): Promise<number> {
    const saved = await savedState(this.client, this.bucket, id);
    if (saved?.digest !== undefined) return (await this.getMetadata(id)).file.size ?? saved.offset;
    return saved?.offset ?? 0;
  }

  async moveToBlobs(id: string, hash: string): Promise<void> {
    const target = await this.contentKey(id).catch(() => null);
    if (target) {
      // Completed already unless the process died between saving the digest and completing.
      if (await this.blobs.has(hash)) return;
      const saved = await savedState(this.client, this.bucket, id);
      if (saved?.digest !== hash) throw new Error(`upload ${id} holds no bytes`);
      const parts = (await listContentParts(this.raw, this.bucket, target.key, (await this.getMetadata(id))['upload-id'])).filter((p) => (p.PartNumber ?? 0) <= (saved.parts ?? 0));
      const uploadId = (await this.getMetadata(id))['upload-id'];
      await settleContent(this.raw, this.blobs, { bucket: this.bucket, key: target.key, uploadId }, hash, hash, parts);
      return;
    }
    const size = await this.completed(id).catch(() => null);
    // Gone: a run that died after this step moved it already.
    if (size === null) {
      if (await this.blobs.has(hash)) return;
      throw new Error(`upload ${id} holds no bytes`);
    }
    await this.blobs.adoptObject(UPLOAD_PREFIX + id, hash, size);
  }

  async forget(id: string): Promise<void> {
    this.kept.drop(id);
    this.listed.delete(id);
    // One delete per key: multi-object delete needs a checksum header not every S3-compatible server takes.
    const meta = await this.getMetadata(id).catch(() => null);
    const target = meta ? await this.contentKey(id).catch(() => null) : null;
    // A completed content key is the blob itself: aborting its (finished) multipart upload is all that is asked.
    if (meta?.['upload-id']) await this.raw.abortMultipartUpload({ Bucket: this.bucket, Key: target?.key ?? UPLOAD_PREFIX + id, UploadId: meta['upload-id'] }).catch(() => undefined);
    await Promise.all([id, `${id}.part`, `${id}.b3`, this.infoKey(id)].map((Key) => this.client.deleteObject({ Bucket: this.bucket, Key }).catch(() => undefined)));
    await this.clearCache(id);
  }

  /** tus's termination, through forget (the store's own multi-object delete is not what every server takes). */
  override async remove(id: string): Promise<void> {
    await this.getMetadata(id).catch(() => {
      throw ERRORS.FILE_NOT_FOUND;
    });
    await this.forget(id);
  }

  /**
   * Reclaims what uploads that no longer exist left (a process that died before forgetting them), once older than the
   * grace period: their keys and unfinished multipart uploads under uploads/ and at content keys (s3-reconcile.ts).
   * `live` says which ids still have their row.
   */
  async reconcile(now: number, graceMs: number, live: (ids: string[]) => Promise<Set<string>>): Promise<number> {
    return reconcileUploads(this, now, graceMs, live);
  }

  /** The multipart upload id of each live upload's content key (kept by reconciliation). */
  async contentUploadIds(ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const id of ids) {
      const meta = await this.getMetadata(id).catch(() => null);
      if (meta?.['upload-id'] && (await this.contentKey(id))) out.add(meta['upload-id']);
    }
    return out;
  }

  /**
   * The size of the finished object, finishing the multipart upload first when every part is there but the process
   * died before completing it.
   */
  private async completed(id: string): Promise<number> {
    const size = await objectSize(this.client, this.bucket, id);
    if (size !== null) return size;
    const upload = await this.getUpload(id);
    if (upload.size === undefined || upload.offset !== upload.size) throw new Error(`upload ${id} is not complete`);
    await this.finishMultipartUpload(await this.getMetadata(id), await super.retrieveParts(id));
    await this.clearCache(id);
    return upload.size;
  }
}
