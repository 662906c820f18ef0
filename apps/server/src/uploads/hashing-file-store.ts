/** The tus file store, hashing bytes as they arrive (storage/resumable-hash.ts) so finishing needs no second read. */
import { readFile, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { BlobStore } from '../storage/blob-store.js';
import { forgetHasher, resumeHasher, saveHasher } from '../storage/resumable-hash.js';
import { hashedStream, type UploadStore } from './upload-store.js';

export class HashingFileStore extends FileStore implements UploadStore {
  constructor(
    private readonly dir: string,
    private readonly blobs: BlobStore,
  ) {
    super({ directory: dir });
  }

  dataPath(id: string): string {
    return join(this.dir, id);
  }

  private statePath(id: string): string {
    return join(this.dir, `${id}.b3`);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // A PATCH at the very end (a client repeating its last request while the first finishes) adds nothing: the digest
    // alone serves it, even once the bytes have moved into the store. Any other may add bytes, so it needs a hasher.
    const complete = (await this.configstore.get(id))?.size === offset;
    const hasher = await resumeHasher(this.dataPath(id), this.statePath(id), offset, { adding: !complete });
    try {
      const newOffset = await super.write(hashedStream(readable, hasher), id, offset).catch(async (err: unknown) => {
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

  async digest(id: string, size: number): Promise<string> {
    const hasher = await resumeHasher(this.dataPath(id), this.statePath(id), size);
    try {
      return await hasher.digest();
    } finally {
      hasher.close();
    }
  }

  async bytesStored(id: string): Promise<number | null> {
    return stat(this.dataPath(id)).then((s) => s.size, () => null);
  }

  async moveToBlobs(id: string, hash: string): Promise<void> {
    // A run that died after this step left the bytes in the store already.
    if ((await this.bytesStored(id)) !== null || !(await this.blobs.has(hash))) await this.blobs.adopt(this.dataPath(id), hash);
  }

  async hashedUpTo(id: string): Promise<number> {
    return readFile(this.statePath(id), 'utf8').then((t) => Number((JSON.parse(t) as { offset?: unknown }).offset) || 0, () => 0);
  }

  async forget(id: string): Promise<void> {
    await rm(this.dataPath(id), { force: true });
    await forgetHasher(this.statePath(id));
    await this.configstore.delete(id).catch(() => undefined);
  }
}
