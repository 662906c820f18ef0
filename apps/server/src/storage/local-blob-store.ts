/**
 * Blob store on the local disk: data/blobs/ab/cd/<hash>, written to a temporary name and synced as it goes
 * (synced-file-writer.ts), renamed into place, the folder synced so the name lasts too.
 */
import { createReadStream, mkdirSync } from 'node:fs';
import { copyFile, link, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { newId } from '../lib/ids.js';
import { isContentHash, type BlobStore, type StoredBlob } from './blob-store.js';
import { writeSynced, type SyncedWriteOptions } from './synced-file-writer.js';

const READ_CHUNK = 1024 * 1024;

export class LocalBlobStore implements BlobStore {
  private readonly tmpDir: string;

  /** `writeOptions` tunes the write path's batches and background syncs (tests use small ones). */
  constructor(
    private readonly root: string,
    private readonly writeOptions: SyncedWriteOptions = {},
  ) {
    this.tmpDir = join(root, 'tmp');
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** Path of a blob; refuses anything but a hash so no caller can reach outside the store. */
  pathOf(hash: string): string {
    return join(this.root, this.keyOf(hash));
  }

  /** Where a blob sits under the store's folder, `/`-separated (`ab/cd/<hash>`): what a proxy's internal location appends. */
  keyOf(hash: string): string {
    if (!isContentHash(hash)) throw new Error(`not a content hash: ${hash}`);
    return `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  async put(source: Readable): Promise<StoredBlob> {
    const tmp = join(this.tmpDir, `${newId()}.part`);
    let fh: FileHandle | null = null;
    try {
      fh = await open(tmp, 'wx');
      // Every byte is on the disk before the blob takes its name (and before any row can name it).
      const { hash, size } = await writeSynced(source, fh, this.writeOptions);
      await fh.close();
      fh = null;
      // Same content already stored: keep the existing copy. Freeing a large file's blocks takes a while (~0.2 s a
      // GB here) and changes nothing the caller waits for; a removal that fails is the reconciler's (blobs/tmp).
      if (await this.has(hash)) void rm(tmp, { force: true }).catch(() => undefined);
      else await this.place(tmp, hash);
      return { hash, size };
    } catch (err) {
      // writeSynced settles its writes before it rejects, so the file can go now.
      await fh?.close().catch(() => undefined);
      await rm(tmp, { force: true });
      source.destroy();
      throw err;
    }
  }

  async adopt(localPath: string, hash: string, opts: { keep?: boolean } = {}): Promise<void> {
    const fh = await open(localPath, 'r');
    await fh.sync();
    await fh.close();
    if (!opts.keep) return this.place(localPath, hash);
    if (await this.has(hash)) return;
    // A second name for the same bytes (no copy) when the file is on the store's disk, else a copy.
    const tmp = join(this.tmpDir, `${newId()}.part`);
    await link(localPath, tmp).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
      await copyFile(localPath, tmp);
      const copy = await open(tmp, 'r');
      await copy.sync();
      await copy.close();
    });
    await this.place(tmp, hash);
  }

  /** Moves a complete, synced file to its hash's name (or drops it when that content is stored already). */
  private async place(file: string, hash: string): Promise<void> {
    const dest = this.pathOf(hash);
    const dir = join(dest, '..');
    const made = await mkdir(dir, { recursive: true });
    if (await this.has(hash)) return void (await rm(file, { force: true }));
    await rename(file, dest);
    // The name must last as the bytes do: the folder holding it, and the folders mkdir has just made in theirs.
    await syncDir(dir);
    if (made) for (let d = join(dir, '..'), top = join(this.root); d.length >= top.length; d = join(d, '..')) await syncDir(d);
  }

  async has(hash: string): Promise<boolean> {
    try {
      await stat(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Reads in 1 MiB chunks (fs's default is 64 KiB): each chunk is a round trip to the thread pool, and a download of
   * 64 KiB chunks spent most of its time waiting for them (docs/decisions/serving-bytes.md).
   */
  read(hash: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(hash), { highWaterMark: READ_CHUNK, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  async delete(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }
}

/** Makes a rename in `dir` durable (the file's own sync covers its bytes, not its name). */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
