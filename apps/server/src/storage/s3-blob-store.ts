/**
 * Blob store in an S3-compatible bucket: `blobs/ab/cd/<hash>`. A write streams to a temporary key `tmp/<id>` (multipart,
 * a bounded queue of parts, hashing on the way), then is copied server-side to its content key and the temporary key
 * dropped: the content key only ever holds complete bytes that match its name. Keys are built from checked hashes only.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { newId } from '../lib/ids.js';
import { isContentHash, type BlobStore, type StoredBlob } from './blob-store.js';
import { hashingTap } from './content-hash.js';
import type { S3Config } from './s3-config.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
export const BLOB_PREFIX = 'blobs/';
export const TMP_PREFIX = 'tmp/';

export interface S3StoreOptions {
  /** Part size of streamed writes: at most queueSize + 1 parts are in memory per write; 10,000 parts cap a blob (80 GB at 8 MiB). */
  partSize?: number;
  queueSize?: number;
  /** Largest object one CopyObject may copy (S3: 5 GiB); larger ones are copied in parts of `copyPartSize`. */
  copyLimit?: number;
  copyPartSize?: number;
}

/** An object under a prefix, as listings return it. */
export interface S3Entry {
  key: string;
  size: number;
  lastModified: number;
}

const requireHere = createRequire(import.meta.url);

/**
 * The AWS SDK, loaded with the first S3 store rather than with the server, so a server keeping its blobs on local disk
 * (the default) never loads it. Synchronous, so a store can be used as soon as it is built; the SDK ships CommonJS
 * only, so this is the very module an `import` of it elsewhere gives. The multipart helper and the presigner, needed by
 * fewer calls, are imported at their first use.
 */
export function s3Sdk(): typeof S3Sdk {
  return requireHere('@aws-sdk/client-s3') as typeof S3Sdk;
}

/** The SDK client for a configuration; checksums only where S3 requires them, which every compatible server accepts. */
export function s3Client(cfg: S3Config): S3Client {
  return new (s3Sdk().S3Client)(s3ClientConfig(cfg));
}

/** The SDK options s3Client builds its client from (the tus upload store builds its own client from them too). */
export function s3ClientConfig(cfg: S3Config): S3ClientConfig {
  return {
    region: cfg.region,
    forcePathStyle: cfg.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    ...(cfg.accessKeyId && cfg.secretAccessKey ? { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } } : {}),
  };
}

/** True for the SDK's "no such object" answers (HeadObject has no body, so only its status says so). */
function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  /** The SDK's command classes. */
  private readonly sdk = s3Sdk();
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly copyLimit: number;
  private readonly copyPartSize: number;

  constructor(cfg: S3Config, opts: S3StoreOptions = {}) {
    this.client = s3Client(cfg);
    this.bucket = cfg.bucket;
    this.partSize = opts.partSize ?? 8 * MiB;
    this.queueSize = opts.queueSize ?? 2;
    this.copyLimit = opts.copyLimit ?? 5 * GiB;
    this.copyPartSize = opts.copyPartSize ?? 512 * MiB;
  }

  /** Key of a blob; refuses anything but a hash so no caller can name another key. */
  keyOf(hash: string): string {
    if (!isContentHash(hash)) throw new Error(`not a content hash: ${hash}`);
    return `${BLOB_PREFIX}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  async put(source: Readable): Promise<StoredBlob> {
    const tmpKey = `${TMP_PREFIX}${newId()}`;
    const { tap, result } = await hashingTap();
    const { Upload } = await import('@aws-sdk/lib-storage');
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: tmpKey, Body: tap }, partSize: this.partSize, queueSize: this.queueSize });
    const flowing = pipeline(source, tap);
    try {
      await Promise.all([flowing, upload.done()]);
    } catch (err) {
      // Either side may fail first: stop the other, let lib-storage abort its multipart upload, and drop a finished part.
      flowing.catch(() => undefined);
      source.destroy();
      tap.destroy();
      await upload.abort().catch(() => undefined);
      await this.deleteKey(tmpKey).catch(() => undefined);
      throw err;
    }
    const { hash, size } = result();
    try {
      // Same content already stored: keep the existing object.
      if (!(await this.has(hash))) await this.copy(tmpKey, this.keyOf(hash), size);
    } finally {
      await this.deleteKey(tmpKey).catch(() => undefined);
    }
    return { hash, size };
  }

  async adopt(localPath: string, hash: string, opts: { keep?: boolean } = {}): Promise<void> {
    const key = this.keyOf(hash);
    if (!(await this.has(hash))) {
      const { size } = await stat(localPath);
      // A multipart upload only appears once completed, so the content key never holds part of a file.
      const partSize = Math.max(this.partSize, Math.ceil(size / 9_000));
      const { Upload } = await import('@aws-sdk/lib-storage');
      const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: createReadStream(localPath, { highWaterMark: MiB }) }, partSize, queueSize: this.queueSize });
      await upload.done();
    }
    if (!opts.keep) await rm(localPath, { force: true });
  }

  /**
   * Takes over a complete object of this bucket (a finished tus upload) whose hash the server computed: copied
   * server-side to its content key unless that is there already, then removed. No byte passes through Haul.
   */
  async adoptObject(key: string, hash: string, size: number): Promise<void> {
    if (!(await this.has(hash))) await this.copy(key, this.keyOf(hash), size);
    await this.deleteKey(key);
  }

  async has(hash: string): Promise<boolean> {
    try {
      await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** The bytes, fetched only once the stream is first read (a reply that is never sent costs no request). */
  read(hash: string, range?: { start: number; end: number }): Readable {
    const key = this.keyOf(hash);
    const abort = new AbortController();
    let body: Readable | null = null;
    let started = false;
    const get = () =>
      this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }), { abortSignal: abort.signal });
    return new Readable({
      // The response's chunks (16-64 KiB) pass through; a 16 KiB mark would pause and resume the response at each one.
      highWaterMark: MiB,
      read() {
        if (body) return void body.resume();
        if (started) return;
        started = true;
        get().then(
          (res) => {
            if (this.destroyed) return void (res.Body as Readable | undefined)?.destroy();
            body = res.Body as Readable;
            body.on('data', (chunk: Buffer) => {
              if (!this.push(chunk)) body!.pause();
            });
            body.once('end', () => this.push(null));
            body.once('error', (err) => this.destroy(err));
          },
          (err: unknown) => {
            // Missing bytes read like the local store's missing file.
            const e = isNotFound(err) ? Object.assign(new Error(`blob ${hash} is not stored`), { code: 'ENOENT' }) : (err as Error);
            this.destroy(e);
          },
        );
      },
      destroy(err, cb) {
        abort.abort();
        body?.destroy();
        cb(err);
      },
    });
  }

  async delete(hash: string): Promise<void> {
    await this.deleteKey(this.keyOf(hash));
  }

  /** A GET of the blob that works without credentials for `expiresIn` seconds, answering with the given headers. */
  async presignedGet(hash: string, expiresIn: number, headers: { contentDisposition: string; contentType: string }): Promise<string> {
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const cmd = new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash), ResponseContentDisposition: headers.contentDisposition, ResponseContentType: headers.contentType });
    return getSignedUrl(this.client, cmd, { expiresIn });
  }

  /** Every object under `prefix` (blobs/ or tmp/), a page of up to 1,000 at a time. */
  async *list(prefix: typeof BLOB_PREFIX | typeof TMP_PREFIX): AsyncGenerator<S3Entry[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      yield (page.Contents ?? []).map((o) => ({ key: o.Key!, size: o.Size ?? 0, lastModified: o.LastModified?.getTime() ?? 0 }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Removes a temporary key (reconciliation of writes that never finished); refuses any other key. */
  async deleteTemporary(key: string): Promise<void> {
    if (!/^tmp\/[A-Za-z0-9_-]+$/.test(key)) throw new Error(`not a temporary key: ${key}`);
    await this.deleteKey(key);
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Server-side copy; past CopyObject's limit, a multipart copy of ranges. */
  private async copy(from: string, to: string, size: number): Promise<void> {
    const source = `${this.bucket}/${from}`;
    if (size <= this.copyLimit) {
      await this.client.send(new this.sdk.CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
      return;
    }
    const { UploadId } = await this.client.send(new this.sdk.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }));
    try {
      const parts = [];
      for (let start = 0, n = 1; start < size; start += this.copyPartSize, n++) {
        const end = Math.min(size, start + this.copyPartSize) - 1;
        const res = await this.client.send(new this.sdk.UploadPartCopyCommand({ Bucket: this.bucket, Key: to, UploadId, PartNumber: n, CopySource: source, CopySourceRange: `bytes=${start}-${end}` }));
        parts.push({ PartNumber: n, ETag: res.CopyPartResult?.ETag });
      }
      await this.client.send(new this.sdk.CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await this.client.send(new this.sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId })).catch(() => undefined);
      throw err;
    }
  }
}
