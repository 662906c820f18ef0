/**
 * Where tus uploads gather their bytes until the last one arrives: a local folder (hashing-file-store.ts) beside local
 * blobs, or S3 multipart uploads (s3-upload-store.ts) beside S3 blobs, so any API process can take the next chunk.
 * Both hash the bytes as they arrive (the hasher state saved after each write), so finishing needs no second read.
 */
import { Transform, type Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';
import type { ThreadedHasher } from '../storage/threaded-hasher.js';

export interface UploadStore extends DataStore {
  /** The BLAKE3 hash of the first `size` bytes received (every byte of a finished upload). */
  digest(id: string, size: number): Promise<string>;
  /** Bytes received and still held here, or null when there are none (moved into the blob store, or never made). */
  bytesStored(id: string): Promise<number | null>;
  /** How many bytes the saved hasher state has seen (0 when there is none). */
  hashedUpTo(id: string): Promise<number>;
  /** Moves a finished upload's bytes into the blob store under `hash` (nothing to do when a crash left them there). */
  moveToBlobs(id: string, hash: string): Promise<void>;
  /** Forgets an upload: its bytes (unless already moved away), hash state and tus metadata. */
  forget(id: string): Promise<void>;
}

/** A pass-through that feeds every chunk to `hasher` (on its thread; it waits only when that falls a few MiB behind). */
export function hashedStream(readable: Readable, hasher: ThreadedHasher): Readable {
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hasher.update(chunk).then(() => cb(null, chunk), cb);
    },
  });
  readable.on('error', (err) => tap.destroy(err));
  return readable.pipe(tap);
}
