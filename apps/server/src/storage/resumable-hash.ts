/**
 * BLAKE3 over a file that grows across requests and restarts. The hasher state is saved beside the
 * file after each successful write; on resume, bytes on disk past the saved state are read once to
 * catch up, so the final hash never needs a second full read. Hashing runs on the hashing thread
 * (threaded-hasher.ts), off the event loop.
 */
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { ThreadedHasher } from './threaded-hasher.js';

interface SavedState {
  offset: number;
  state: string;
}

/**
 * A hasher that has seen exactly the first `upTo` bytes of `dataPath` (starting from a saved state when
 * there is one). The caller closes it.
 */
export async function resumeHasher(dataPath: string, statePath: string | null, upTo: number): Promise<ThreadedHasher> {
  const hasher = new ThreadedHasher();
  try {
    let from = 0;
    try {
      if (!statePath) throw new Error('no saved state');
      const saved = JSON.parse(await readFile(statePath, 'utf8')) as SavedState;
      if (saved.offset <= upTo) {
        await hasher.load(Buffer.from(saved.state, 'base64'));
        from = saved.offset;
      }
    } catch {
      // No usable state: the hasher is still fresh, and everything is read from disk.
    }
    if (from < upTo) {
      for await (const chunk of createReadStream(dataPath, { start: from, end: upTo - 1 })) await hasher.update(chunk as Buffer);
    }
    return hasher;
  } catch (err) {
    hasher.close();
    throw err;
  }
}

/** Saves what `hasher` has seen (the first `offset` bytes) beside the file. */
export async function saveHasher(statePath: string, hasher: ThreadedHasher, offset: number): Promise<void> {
  const saved: SavedState = { offset, state: Buffer.from(await hasher.save()).toString('base64') };
  await writeFile(statePath, JSON.stringify(saved));
}

/** Removes a saved hasher state. */
export async function forgetHasher(statePath: string): Promise<void> {
  await rm(statePath, { force: true });
}
