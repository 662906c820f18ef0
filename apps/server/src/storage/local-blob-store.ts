/** Blob store on the local disk: data/blobs/ab/cd/<hash>, written to a temporary name, fsynced, renamed into place. */
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId } from '../lib/ids.js';
import { isContentHash, type BlobStore, type StoredBlob } from './blob-store.js';
import { hashingTap } from './content-hash.js';

export class LocalBlobStore implements BlobStore {
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = join(root, 'tmp');
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** Path of a blob; refuses anything but a hash so no caller can reach outside the store. */
  pathOf(hash: string): string {
    if (!isContentHash(hash)) throw new Error(`not a content hash: ${hash}`);
    return join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(source: Readable): Promise<StoredBlob> {
    const tmp = join(this.tmpDir, `${newId()}.part`);
    const { tap, result } = await hashingTap();
    const out = createWriteStream(tmp);
    try {
      await pipeline(source, tap, out);
      const fh = await open(tmp, 'r');
      await fh.sync();
      await fh.close();
      const { hash, size } = result();
      const dest = this.pathOf(hash);
      await mkdir(join(dest, '..'), { recursive: true });
      // Same content already stored: keep the existing copy.
      if (await this.has(hash)) await rm(tmp, { force: true });
      else await rename(tmp, dest);
      return { hash, size };
    } catch (err) {
      // The file may still be opening when the source fails: remove it only once the stream is closed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async adopt(localPath: string, hash: string): Promise<void> {
    const fh = await open(localPath, 'r');
    await fh.sync();
    await fh.close();
    const dest = this.pathOf(hash);
    await mkdir(join(dest, '..'), { recursive: true });
    if (await this.has(hash)) await rm(localPath, { force: true });
    else await rename(localPath, dest);
  }

  async has(hash: string): Promise<boolean> {
    try {
      await stat(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  read(hash: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(hash), range ? { start: range.start, end: range.end } : {});
  }

  async delete(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }
}
