/** Content-addressed byte storage: a blob is named by the content hash (BLAKE3) the server computed while writing it. */
import type { Readable } from 'node:stream';

export interface StoredBlob {
  hash: string;
  size: number;
}

export interface BlobStore {
  /** Writes a stream, hashing it on the way; the blob becomes visible only when complete. */
  put(source: Readable): Promise<StoredBlob>;
  /**
   * Takes over a complete local file whose hash the server computed, moving it into the store; with `keep`, the file
   * stays where it is (another program still reads it) and the store takes a link to it, or a copy.
   */
  adopt(localPath: string, hash: string, opts?: { keep?: boolean }): Promise<void>;
  has(hash: string): Promise<boolean>;
  /** Reads bytes [start, end] (inclusive) or the whole blob. */
  read(hash: string, range?: { start: number; end: number }): Readable;
  delete(hash: string): Promise<void>;
}

export function isContentHash(s: string): boolean {
  return /^[0-9a-f]{64}$/.test(s);
}

/** A small blob read whole (a .torrent, a subtitle): callers bound the size first. */
export async function blobBytes(blobs: BlobStore, hash: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of blobs.read(hash)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
