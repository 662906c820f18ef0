/**
 * BLAKE3 over a file that grows across requests and restarts. The hasher state is saved beside the
 * file after each successful write; on resume, bytes on disk past the saved state are read once to
 * catch up, so the final hash never needs a second full read.
 */
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createBLAKE3, type IHasher } from 'hash-wasm';

interface SavedState {
  offset: number;
  state: string;
}

/** A hasher that has seen exactly the first `upTo` bytes of `dataPath` (starting from a saved state when there is one). */
export async function resumeHasher(dataPath: string, statePath: string | null, upTo: number): Promise<IHasher> {
  const hasher = await createBLAKE3();
  let from = 0;
  try {
    if (!statePath) throw new Error('no saved state');
    const saved = JSON.parse(await readFile(statePath, 'utf8')) as SavedState;
    if (saved.offset <= upTo) {
      hasher.load(Buffer.from(saved.state, 'base64'));
      from = saved.offset;
    } else hasher.init();
  } catch {
    hasher.init();
  }
  if (from < upTo) {
    for await (const chunk of createReadStream(dataPath, { start: from, end: upTo - 1 })) hasher.update(chunk as Buffer);
  }
  return hasher;
}

export async function saveHasher(statePath: string, hasher: IHasher, offset: number): Promise<void> {
  const saved: SavedState = { offset, state: Buffer.from(hasher.save()).toString('base64') };
  await writeFile(statePath, JSON.stringify(saved));
}

export async function forgetHasher(statePath: string): Promise<void> {
  await rm(statePath, { force: true });
}
