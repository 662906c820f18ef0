/**
 * tus uploads straight into S3 multipart uploads (@tus/s3-store), under `uploads/` in the blobs' bucket: each chunk
 * becomes parts of the upload's multipart upload (a tail under S3's 5 MiB minimum waits as `uploads/<id>.part`), so any
 * API process can take the next chunk and nothing is kept on local disk between requests. The hasher state is saved
 * as `uploads/<id>.b3` after each write, and the finished object is copied server-side to its content key.
 */
import type { Readable } from 'node:stream';
import type { S3 } from '@aws-sdk/client-s3';
import type { S3Store } from '@tus/s3-store';
import { DataStore, ERRORS } from '@tus/utils';
import { ThreadedHasher } from '../storage/threaded-hasher.js';
import { s3ClientConfig, type S3BlobStore } from '../storage/s3-blob-store.js';
import type { S3Config } from '../storage/s3-config.js';
import { hashedStream, type UploadStore } from './upload-store.js';

const MiB = 1024 * 1024;
export const UPLOAD_PREFIX = 'uploads/';

interface SavedState {
  offset: number;
  state: string;
}

/** The SDK client with every object key under `prefix`: the tus store names keys after the bare upload id. */
function underPrefix(client: S3, prefix: string): S3 {
  const prefixed = (params: unknown): unknown => {
    if (!params || typeof params !== 'object') return params;
    const p = { ...(params as Record<string, unknown>) };
    if (typeof p.Key === 'string') p.Key = prefix + p.Key;
    const del = p.Delete as { Objects?: { Key?: string }[] } | undefined;
    if (del?.Objects) p.Delete = { ...del, Objects: del.Objects.map((o) => ({ ...o, Key: prefix + o.Key })) };
    return p;
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      // The SDK's named methods take their input first; `send` and the rest pass through untouched.
      if (typeof v !== 'function' || prop === 'send' || typeof prop !== 'string' || !/^[a-z]/.test(prop)) return v;
      return (params: unknown, ...rest: unknown[]) => (v as (...a: unknown[]) => unknown).call(target, prefixed(params), ...rest);
    },
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.name === 'NoSuchUpload' || e?.$metadata?.httpStatusCode === 404;
}

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
    // Parts of 8 MiB, at most 4 in flight per request: a chunk is staged in the system's temp folder a part at a time.
    super({ partSize: 8 * MiB, maxConcurrentPartUploads: 4, s3ClientConfig: { ...s3ClientConfig(cfg), bucket: cfg.bucket } });
    this.raw = this.client;
    this.client = underPrefix(this.client, UPLOAD_PREFIX);
  }

  /** The client without the prefix, for listings (their keys come back whole). */
  private readonly raw: S3;

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const saved = await this.savedState(id);
    // A write that failed after storing part of its bytes leaves the state behind the offset: the bytes in between
    // cannot be read back from an unfinished multipart upload, so the hash is taken from the finished object instead.
    const hashing = offset === (saved?.offset ?? 0);
    if (!hashing) return this.append(readable, id, offset);
    const hasher = new ThreadedHasher();
    try {
      if (saved) await hasher.load(Buffer.from(saved.state, 'base64'));
      const newOffset = await this.append(hashedStream(readable, hasher), id, offset);
      const state: SavedState = { offset: newOffset, state: Buffer.from(await hasher.save()).toString('base64') };
      await this.client.putObject({ Bucket: this.bucket, Key: `${id}.b3`, Body: JSON.stringify(state) });
      return newOffset;
    } finally {
      hasher.close();
    }
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
    const hasher = new ThreadedHasher();
    try {
      const saved = await this.savedState(id);
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
    const done = await this.objectSize(id);
    if (done !== null) return done;
    try {
      return (await this.getUpload(id)).offset;
    } catch {
      return null;
    }
  }

  async hashedUpTo(id: string): Promise<number> {
    return (await this.savedState(id))?.offset ?? 0;
  }

  async moveToBlobs(id: string, hash: string): Promise<void> {
    const size = await this.completed(id).catch(() => null);
    // Gone: a run that died after this step moved it already.
    if (size === null) {
      if (await this.blobs.has(hash)) return;
      throw new Error(`upload ${id} holds no bytes`);
    }
    await this.blobs.adoptObject(UPLOAD_PREFIX + id, hash, size);
  }

  async forget(id: string): Promise<void> {
    // One delete per key: multi-object delete needs a checksum header not every S3-compatible server takes.
    const meta = await this.getMetadata(id).catch(() => null);
    if (meta?.['upload-id']) await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: meta['upload-id'] }).catch(() => undefined);
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
   * Reclaims what uploads that no longer exist left (a process that died before forgetting them): their keys and
   * unfinished multipart uploads, once older than the grace period. `live` says which ids still have their row.
   */
  async reconcile(now: number, graceMs: number, live: (ids: string[]) => Promise<Set<string>>): Promise<number> {
    const idOf = (key: string) => key.slice(UPLOAD_PREFIX.length).split('.')[0]!;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.raw.listObjectsV2({ Bucket: this.bucket, Prefix: UPLOAD_PREFIX, ContinuationToken: token });
      const old = (page.Contents ?? []).filter((o) => now - (o.LastModified?.getTime() ?? now) >= graceMs).map((o) => o.Key!);
      const alive = await live([...new Set(old.map(idOf))]);
      for (const key of old.filter((k) => !alive.has(idOf(k)))) {
        await this.raw.deleteObject({ Bucket: this.bucket, Key: key });
        removed++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      const page = await this.raw.listMultipartUploads({ Bucket: this.bucket, Prefix: UPLOAD_PREFIX, KeyMarker: keyMarker, UploadIdMarker: idMarker });
      const old = (page.Uploads ?? []).filter((u) => now - (u.Initiated?.getTime() ?? now) >= graceMs);
      const alive = await live([...new Set(old.map((u) => idOf(u.Key!)))]);
      for (const u of old.filter((x) => !alive.has(idOf(x.Key!)))) {
        await this.raw.abortMultipartUpload({ Bucket: this.bucket, Key: u.Key!, UploadId: u.UploadId! });
        removed++;
      }
      [keyMarker, idMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (keyMarker);
    return removed;
  }

  /**
   * The size of the finished object, finishing the multipart upload first when every part is there but the process
   * died before completing it.
   */
  private async completed(id: string): Promise<number> {
    const size = await this.objectSize(id);
    if (size !== null) return size;
    const upload = await this.getUpload(id);
    if (upload.size === undefined || upload.offset !== upload.size) throw new Error(`upload ${id} is not complete`);
    await this.finishMultipartUpload(await this.getMetadata(id), await this.retrieveParts(id));
    await this.clearCache(id);
    return upload.size;
  }

  private async objectSize(id: string): Promise<number | null> {
    try {
      return (await this.client.headObject({ Bucket: this.bucket, Key: id })).ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  private async savedState(id: string): Promise<SavedState | null> {
    try {
      const res = await this.client.getObject({ Bucket: this.bucket, Key: `${id}.b3` });
      return JSON.parse(await res.Body!.transformToString()) as SavedState;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }
}
