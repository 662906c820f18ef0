/**
 * Writes a stream to an open file, hashing it in line, so that when it returns every byte is on the disk.
 *
 * Chunks (64 KiB off a socket) are gathered into batches written with one `writev` while the next batch is read, so
 * reading the source never waits on a write of its own chunk (a stream pipe to a WriteStream waits for each one).
 * Every `syncEveryBytes` written, an `fdatasync` starts in the background (one at a time): the disk takes the bytes
 * while the rest arrives, and the final `fdatasync` has only the tail left. At most two batches are held.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createContentHasher, type ContentHasher } from './content-hash.js';

export interface SyncedWriteOptions {
  /** Bytes gathered before a write (default 1 MiB). */
  batchBytes?: number;
  /** Bytes written between background syncs (default 64 MiB). */
  syncEveryBytes?: number;
  /** Called when a sync has finished with how many bytes it covers (the last call covers them all). */
  onSynced?: (bytes: number) => void;
}

const MiB = 1024 * 1024;

/** Writes all of `bufs` at `position`, going on after a short write. */
async function writeAll(fh: FileHandle, bufs: Buffer[], position: number): Promise<void> {
  let total = 0;
  for (const b of bufs) total += b.length;
  let done = 0;
  while (done < total) {
    const { bytesWritten } = await fh.writev(done ? remainder(bufs, done) : bufs, position + done);
    if (bytesWritten <= 0) throw new Error('the file write made no progress');
    done += bytesWritten;
  }
}

/** The buffers from byte `skip` on. */
function remainder(bufs: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  for (const b of bufs) {
    if (skip >= b.length) skip -= b.length;
    else {
      out.push(skip ? b.subarray(skip) : b);
      skip = 0;
    }
  }
  return out;
}

/**
 * Streams `source` into `fh` from offset 0 and syncs it; resolves with the BLAKE3 hash and size of what was written
 * once the data is durable. On a failure of the source, a write or a sync it rejects after every write it started
 * has settled, so the caller may close and remove the file at once.
 */
export async function writeSynced(source: Readable, fh: FileHandle, opts: SyncedWriteOptions = {}): Promise<{ hash: string; size: number }> {
  const batchBytes = opts.batchBytes ?? MiB;
  const syncEvery = opts.syncEveryBytes ?? 64 * MiB;
  const hasher: ContentHasher = await createContentHasher();
  let size = 0;
  let batch: Buffer[] = [];
  let batchSize = 0;
  /** Bytes known written, and where the next batch goes (past the one in flight). */
  let written = 0;
  let nextAt = 0;
  let lastSync = 0;
  let writing: Promise<void> | null = null;
  let syncing: Promise<void> | null = null;
  let failure: unknown = null;

  const startSync = () => {
    const covers = written;
    lastSync = covers;
    syncing = fh.datasync().then(
      () => {
        syncing = null;
        opts.onSynced?.(covers);
      },
      (err) => {
        syncing = null;
        failure ??= err;
      },
    );
  };
  /** Waits for the write in flight, then starts the gathered batch. */
  const flush = async () => {
    if (writing) await writing;
    writing = null;
    if (failure) throw failure;
    if (!batchSize) return;
    const bufs = batch;
    const at = nextAt;
    const end = at + batchSize;
    nextAt = end;
    batch = [];
    batchSize = 0;
    writing = writeAll(fh, bufs, at).then(
      () => {
        written = end;
        if (written - lastSync >= syncEvery && !syncing) startSync();
      },
      (err) => void (failure ??= err),
    );
  };

  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      hasher.update(chunk);
      size += chunk.length;
      batch.push(chunk);
      batchSize += chunk.length;
      if (batchSize >= batchBytes) await flush();
    }
    await flush();
    if (writing) await writing;
    if (syncing) await syncing;
    if (failure) throw failure;
    // The last sync covers every byte, including those a background sync has already taken.
    await fh.datasync();
    opts.onSynced?.(size);
    return { hash: hasher.digest(), size };
  } finally {
    // Nothing may still be writing into the file when the caller closes and removes it.
    if (writing) await writing;
    if (syncing) await syncing;
  }
}
