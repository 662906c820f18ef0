/**
 * The tus file store, hashing bytes as they arrive so finishing a large upload needs no second read.
 * The hasher's state is saved beside the upload after every successful write; after a failed write or
 * a restart, the bytes on disk past the saved state are read once to catch up.
 */
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { createBLAKE3, type IHasher } from 'hash-wasm';

interface SavedState {
  offset: number;
  state: string;
}

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

  private async loadHasher(id: string, upTo: number): Promise<IHasher> {
    const hasher = await createBLAKE3();
    let from = 0;
    try {
      const saved = JSON.parse(await readFile(this.statePath(id), 'utf8')) as SavedState;
      if (saved.offset <= upTo) {
        hasher.load(Buffer.from(saved.state, 'base64'));
        from = saved.offset;
      } else hasher.init();
    } catch {
      hasher.init();
    }
    if (from < upTo) {
      for await (const chunk of createReadStream(this.dataPath(id), { start: from, end: upTo - 1 })) hasher.update(chunk as Buffer);
    }
    return hasher;
  }

  private async saveHasher(id: string, hasher: IHasher, offset: number): Promise<void> {
    const saved: SavedState = { offset, state: Buffer.from(hasher.save()).toString('base64') };
    await writeFile(this.statePath(id), JSON.stringify(saved));
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const hasher = await this.loadHasher(id, offset);
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hasher.update(chunk);
        cb(null, chunk);
      },
    });
    readable.on('error', (err) => tap.destroy(err));
    readable.pipe(tap);
    const newOffset = await super.write(tap, id, offset);
    await this.saveHasher(id, hasher, newOffset);
    return newOffset;
  }

  /** The BLAKE3 hash of the first `size` bytes received. */
  async digest(id: string, size: number): Promise<string> {
    return (await this.loadHasher(id, size)).digest('hex');
  }

  /** Forgets an upload: its bytes (unless already moved away), hash state and tus metadata. */
  async forget(id: string): Promise<void> {
    await rm(this.dataPath(id), { force: true });
    await rm(this.statePath(id), { force: true });
    await this.configstore.delete(id).catch(() => undefined);
  }
}
