/**
 * Writes a stream to an open file, hashing it in line, so that when it returns every byte is on the disk.
 *
 * Chunks (64 KiB off a socket) are gathered into batches written with one `writev` while the next batch is read, so
 * reading the source never waits on a write of its own chunk (a stream pipe to a WriteStream waits for each one).
 * Every `syncEveryBytes` written, an `fdatasync` starts in the background (one at a time): the disk takes the bytes
 * while the rest arrives, and the final `fdatasync` has only the tail left. At most two batches are held.
 *
 * `writeSynced` writes a whole file and syncs it (blob store, WebDAV). `appendBatched` writes one piece of a file
 * written over several calls (tus PATCHes, a resumed download) with no final sync: the calls share a `BackgroundSync`,
 * so the background syncs keep pace across them and the file's last sync, when it is finished, has little left.
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
 * The background syncs of one file: one `fdatasync` at a time, started once `syncEveryBytes` more have been written
 * than the last one covered. It may outlive the write call that started it (a tus PATCH answers while the disk takes
 * its bytes): `release` closes that call's handle once its sync is done, and a failure is kept until `settle` or the
 * next write reports it.
 */
export class BackgroundSync {
  /** Where the last sync started covers the file up to (bytes from its start). */
  private covered: number;
  private running: Promise<void> | null = null;
  private runningOn: FileHandle | null = null;
  private failure: unknown = null;

  /** `syncedTo`: bytes known synced already (0 when nothing is known). */
  constructor(
    syncedTo = 0,
    private readonly onSynced?: (bytes: number) => void,
  ) {
    this.covered = syncedTo;
  }

  /** Starts a sync of `fh` covering its first `written` bytes when one is due and none is running. */
  maybeStart(fh: FileHandle, written: number, every: number): void {
    if (this.running || written - this.covered < every) return;
    this.covered = written;
    this.runningOn = fh;
    this.running = fh.datasync().then(
      () => this.onSynced?.(written),
      (err) => {
        this.failure ??= err;
        // What this sync should have covered is not known synced: the next one covers it again.
        this.covered = 0;
      },
    ).finally(() => {
      this.running = null;
      this.runningOn = null;
    });
  }

  /** A failed sync, once (it is reported to one caller). */
  takeFailure(): unknown {
    const f = this.failure;
    this.failure = null;
    return f;
  }

  /** Waits for the sync running, if any; throws a sync failure not reported yet. */
  async settle(): Promise<void> {
    if (this.running) await this.running;
    const f = this.takeFailure();
    if (f) throw f;
  }

  /** Closes `fh` now, or once the sync running on it is done (its failure stays for the next caller). */
  async release(fh: FileHandle): Promise<void> {
    if (this.running && this.runningOn === fh) {
      const closing = this.running.then(() => fh.close());
      void closing.catch(() => undefined);
      return;
    }
    await fh.close();
  }
}

interface PumpOptions {
  position: number;
  batchBytes: number;
  syncEveryBytes: number;
  /** Sees every chunk, in order, before it is written; a promise makes reading wait; a throw stops the write. */
  feed: (chunk: Buffer) => void | Promise<void>;
  sync: BackgroundSync;
  /** When the source fails, write the chunks it delivered before rejecting. */
  keepOnSourceError?: boolean;
}

/**
 * Writes `source` into `fh` from `position` in batches, starting background syncs as they fall due; resolves with
 * the bytes written. On any failure it rejects after every write it started has settled.
 */
async function pump(source: Readable, fh: FileHandle, o: PumpOptions): Promise<number> {
  let batch: Buffer[] = [];
  let batchSize = 0;
  /** Bytes known written (from the file's start), and where the next batch goes (past the one in flight). */
  let written = o.position;
  let nextAt = o.position;
  let writing: Promise<void> | null = null;
  let failure: unknown = null;

  /** Waits for the write in flight, then starts the gathered batch. */
  const flush = async () => {
    if (writing) await writing;
    writing = null;
    failure ??= o.sync.takeFailure();
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
        o.sync.maybeStart(fh, written, o.syncEveryBytes);
      },
      (err) => void (failure ??= err),
    );
  };

  /** Whether a failure came from reading the source (rather than from the feed or a write). */
  let reading = true;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      reading = false;
      const fed = o.feed(chunk);
      if (fed) await fed;
      batch.push(chunk);
      batchSize += chunk.length;
      if (batchSize >= o.batchBytes) await flush();
      reading = true;
    }
    reading = false;
    await flush();
    if (writing) await writing;
    if (failure) throw failure;
    return nextAt - o.position;
  } catch (err) {
    // A source that fails (a dropped connection) still leaves what it delivered in the file, to resume from.
    if (reading && o.keepOnSourceError) await flush().catch(() => undefined);
    throw err;
  } finally {
    // Nothing may still be writing into the file when the caller closes and removes it.
    if (writing) await writing;
  }
}

/**
 * Streams `source` into `fh` from offset 0 and syncs it; resolves with the BLAKE3 hash and size of what was written
 * once the data is durable. On a failure of the source, a write or a sync it rejects after every write it started
 * has settled, so the caller may close and remove the file at once.
 */
export async function writeSynced(source: Readable, fh: FileHandle, opts: SyncedWriteOptions = {}): Promise<{ hash: string; size: number }> {
  const hasher: ContentHasher = await createContentHasher();
  const sync = new BackgroundSync(0, opts.onSynced);
  try {
    const size = await pump(source, fh, {
      position: 0,
      batchBytes: opts.batchBytes ?? MiB,
      syncEveryBytes: opts.syncEveryBytes ?? 64 * MiB,
      feed: (chunk) => hasher.update(chunk),
      sync,
    });
    await sync.settle();
    // The last sync covers every byte, including those a background sync has already taken.
    await fh.datasync();
    opts.onSynced?.(size);
    return { hash: hasher.digest(), size };
  } finally {
    // Nothing may still be syncing the file when the caller closes and removes it.
    await sync.settle().catch(() => undefined);
  }
}

export interface AppendOptions {
  /** Where the first byte goes. */
  position: number;
  /** Bytes gathered before a write (default 1 MiB). */
  batchBytes?: number;
  /** Bytes written between background syncs (default 64 MiB), counted across calls sharing `sync`. */
  syncEveryBytes?: number;
  /** Sees every chunk in order before it is written (a hasher); a promise makes reading wait, a throw stops. */
  feed?: (chunk: Buffer) => void | Promise<void>;
  /** The file's background syncs, shared by the calls that write it in pieces. */
  sync: BackgroundSync;
}

/**
 * Writes `source` into `fh` from `opts.position`, batched like writeSynced, without a final sync: for a file written
 * in pieces over several calls (tus PATCHes, resumed downloads) whose last sync comes when it is finished. Background
 * syncs start as they fall due and may still run when it returns: close `fh` through `opts.sync.release`. Resolves
 * with the bytes written; on a failure it rejects once the writes it started have settled. The bytes written before
 * stay in the file, and so do those of a source that fails (a dropped connection), fed and written before it rejects.
 */
export function appendBatched(source: Readable, fh: FileHandle, opts: AppendOptions): Promise<number> {
  return pump(source, fh, {
    position: opts.position,
    batchBytes: opts.batchBytes ?? MiB,
    syncEveryBytes: opts.syncEveryBytes ?? 64 * MiB,
    feed: opts.feed ?? (() => undefined),
    sync: opts.sync,
    keepOnSourceError: true,
  });
}
