/** The tus file store, hashing bytes as they arrive (storage/resumable-hash.ts) so finishing needs no second read. */
import { readFile, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { forgetHasher, resumeHasher, saveHasher } from '../storage/resumable-hash.js';

export class HashingFileStore extends FileStore {
  constructor(private readonly dir: string) {
    super({ directory: dir });
  }

  dataPath(id: string): string {
    return join(this.dir, id);
  }

  private statePath(id: string): string {
    return join(this.dir, `${id}.b3`);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const hasher = await resumeHasher(this.dataPath(id), this.statePath(id), offset);
    try {
      const tap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          // Hashed on the hashing thread; this waits only when it falls a few MiB behind.
          hasher.update(chunk).then(() => cb(null, chunk), cb);
        },
      });
      readable.on('error', (err) => tap.destroy(err));
      readable.pipe(tap);
      const newOffset = await super.write(tap, id, offset).catch(async (err: unknown) => {
        // The file store reports every write failure alike; a full disk is told apart here, as it calls for a
        // different answer (retry once space is freed) than a broken one.
        throw (await this.diskIsFull()) ? Object.assign(new Error('no space left on the device'), { code: 'ENOSPC' }) : err;
      });
      await saveHasher(this.statePath(id), hasher, newOffset);
      return newOffset;
    } finally {
      hasher.close();
    }
  }

  /** Whether the disk of the uploads folder has (almost) no space left. */
  private async diskIsFull(): Promise<boolean> {
    const fs = await statfs(this.dir).catch(() => null);
    return fs !== null && fs.bavail * fs.bsize < 1024 * 1024;
  }

  /** The BLAKE3 hash of the first `size` bytes received. */
  async digest(id: string, size: number): Promise<string> {
    const hasher = await resumeHasher(this.dataPath(id), this.statePath(id), size);
    try {
      return await hasher.digest();
    } finally {
      hasher.close();
    }
  }

  /** Bytes received so far, or null when the data file is gone (moved into the store, or never made). */
  async bytesOnDisk(id: string): Promise<number | null> {
    return stat(this.dataPath(id)).then((s) => s.size, () => null);
  }

  /** How many bytes the saved hasher state has seen (0 when there is none). */
  async hashedUpTo(id: string): Promise<number> {
    return readFile(this.statePath(id), 'utf8').then((t) => Number((JSON.parse(t) as { offset?: unknown }).offset) || 0, () => 0);
  }

  /** Forgets an upload: its bytes (unless already moved away), hash state and tus metadata. */
  async forget(id: string): Promise<void> {
    await rm(this.dataPath(id), { force: true });
    await forgetHasher(this.statePath(id));
    await this.configstore.delete(id).catch(() => undefined);
  }
}
