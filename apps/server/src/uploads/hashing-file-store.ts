/**
 * The tus file store, hashing bytes as they arrive (storage/resumable-hash.ts) so finishing needs no second read.
 *
 * A PATCH body is written in 1 MiB batches while the next is read (storage/synced-file-writer.ts), rather than by
 * @tus/file-store's stream, one write per 64 KiB chunk awaited before the next chunk is read; and the disk is asked to
 * take the bytes every 64 MiB in the background, across PATCHes, so the file's sync before it is placed has little left.
 */
import { open, readFile, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import type { BlobStore } from '../storage/blob-store.js';
import { forgetHasher, resumeHasher, saveHasher } from '../storage/resumable-hash.js';
import { appendBatched, BackgroundSync } from '../storage/synced-file-writer.js';
import type { UploadStore } from './upload-store.js';

/** Uploads whose background syncs are followed beyond this many drop the oldest (their next sync covers it all). */
const MAX_TRACKED = 512;

export class HashingFileStore extends FileStore implements UploadStore {
  /** Background syncs of the uploads written by this process, by id. */
  private readonly syncs = new Map<string, BackgroundSync>();

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
    try {
      return await this.writeAt(readable, id, offset);
    } catch (err) {
      // Placed (its bytes moved into the blob store) or finished by a request that ran alongside this one, a client
      // repeating its final PATCH: the upload is gone, as a later request finds it, not a fault of ours.
      if (!(await this.configstore.get(id))) throw ERRORS.FILE_NOT_FOUND;
      if (!(await stat(this.dataPath(id)).catch(() => null))) throw ERRORS.FILE_NO_LONGER_EXISTS;
      throw err;
    }
  }

  private async writeAt(readable: Readable, id: string, offset: number): Promise<number> {
    // A PATCH at the very end (a client repeating its last request while the first finishes) adds nothing: the digest
    // alone serves it, even once the bytes have moved into the store. Any other may add bytes, so it needs a hasher.
    const complete = (await this.configstore.get(id))?.size === offset;
    const hasher = await resumeHasher(this.dataPath(id), this.statePath(id), offset, { adding: !complete });
    try {
      const newOffset = offset + (await this.append(readable, id, offset, (chunk) => hasher.update(chunk)));
      await saveHasher(this.statePath(id), hasher, newOffset);
      return newOffset;
    } finally {
      hasher.close();
    }
  }

  /** Writes a PATCH body at `offset`; resolves with the bytes written (a body cut short by the client: those it sent). */
  private async append(readable: Readable, id: string, offset: number, feed: (chunk: Buffer) => Promise<void>): Promise<number> {
    const sync = this.syncOf(id);
    let fh;
    try {
      fh = await open(this.dataPath(id), 'r+');
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    try {
      return await appendBatched(readable, fh, { position: offset, feed, sync });
    } catch {
      // As @tus/file-store: every failure answers alike (tus tells a client that went away by its own stream's error),
      // except a full disk, told apart as it calls for another answer (retry once space is freed).
      throw (await this.diskIsFull()) ? Object.assign(new Error('no space left on the device'), { code: 'ENOSPC' }) : ERRORS.FILE_WRITE_ERROR;
    } finally {
      await sync.release(fh).catch(() => undefined);
    }
  }

  private syncOf(id: string): BackgroundSync {
    let sync = this.syncs.get(id);
    if (sync) this.syncs.delete(id);
    sync ??= new BackgroundSync();
    // Most recently written last, so the oldest go first.
    this.syncs.set(id, sync);
    if (this.syncs.size > MAX_TRACKED) this.syncs.delete(this.syncs.keys().next().value!);
    return sync;
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
    // A background sync still running is let finish (and a failed one reported) before the file's own sync.
    const sync = this.syncs.get(id);
    this.syncs.delete(id);
    await sync?.settle();
    // A run that died after this step left the bytes in the store already.
    if ((await this.bytesStored(id)) !== null || !(await this.blobs.has(hash))) await this.blobs.adopt(this.dataPath(id), hash);
  }

  async hashedUpTo(id: string): Promise<number> {
    return readFile(this.statePath(id), 'utf8').then((t) => Number((JSON.parse(t) as { offset?: unknown }).offset) || 0, () => 0);
  }

  async forget(id: string): Promise<void> {
    this.syncs.delete(id);
    await rm(this.dataPath(id), { force: true });
    await forgetHasher(this.statePath(id));
    await this.configstore.delete(id).catch(() => undefined);
  }
}
