/**
 * BLAKE3 over a file that grows across requests and restarts, so that finishing it never needs a second full read.
 *
 * On the native BLAKE3 (content-hash.ts), whose state cannot be saved, the running hasher is kept in memory between
 * requests (`parked`, by state path) and the file beside the data says how far it got, the digest of those bytes and
 * which parked hasher stands for them. A request that adds nothing (the finishing digest, a repeated last PATCH) needs
 * only that digest, even after a restart; one that adds bytes goes on from the parked hasher, or, after a restart, in
 * another process, or once evicted, reads the bytes on disk again from the start (native: ~1.5 GB/s from the page
 * cache here), once. On hash-wasm the state itself is saved beside the file
 * after each successful write, as before; a state saved that way (by an older server or the fallback) loads here and
 * its file goes on on hash-wasm. Either way, bytes on disk past what the hasher has seen are read once to catch up.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { Blake3Engine } from './content-hash.js';
import { ThreadedHasher } from './threaded-hasher.js';

interface SavedState {
  /** Bytes the hasher had seen. */
  offset: number;
  /** hash-wasm's saved state (base64). */
  state?: string;
  /** The parked native hasher standing for this state. */
  parked?: string;
  /** BLAKE3 (hex) of the first `offset` bytes. */
  digest?: string;
}

/** Native hashers kept between requests, by state path; a few KB each. */
const parked = new Map<string, { ticket: string; hasher: ThreadedHasher }>();
/** Uploads left unfinished beyond this many lose their parked hasher (oldest first) and are read again on resume. */
const MAX_PARKED = 512;

export interface ResumeOptions {
  /** The engine of a hasher that starts fresh (tests force `wasm`); a saved hash-wasm state always continues on wasm. */
  engine?: Blake3Engine;
  /** Bytes will be added (a write): a digest alone cannot take them, so the hasher is rebuilt from the bytes on disk. */
  adding?: boolean;
}

function unpark(statePath: string): ThreadedHasher | null {
  const entry = parked.get(statePath);
  parked.delete(statePath);
  return entry?.hasher ?? null;
}

/**
 * A hasher that has seen exactly the first `upTo` bytes of `dataPath` (starting from a saved or parked state when
 * there is one that fits). The caller closes it.
 */
export async function resumeHasher(dataPath: string, statePath: string | null, upTo: number, opts: ResumeOptions = {}): Promise<ThreadedHasher> {
  let saved: SavedState | null = null;
  if (statePath) saved = await readFile(statePath, 'utf8').then((t) => JSON.parse(t) as SavedState, () => null);
  const kept = statePath ? parked.get(statePath) : undefined;
  let hasher: ThreadedHasher | null = null;
  let from = 0;
  if (saved && saved.offset <= upTo && kept && saved.parked === kept.ticket) {
    hasher = unpark(statePath!);
    from = saved.offset;
  } else if (kept) {
    // A parked hasher that no longer matches the file beside the data is of no use.
    unpark(statePath!)?.close();
  }
  // Nothing to add to bytes whose digest is known: no need for their hasher, or for the bytes (maybe moved away by now).
  if (!hasher && !opts.adding && saved?.digest && saved.offset === upTo) return ThreadedHasher.ofDigest(saved.digest);
  hasher ??= new ThreadedHasher({ engine: opts.engine ?? 'native' });
  try {
    if (from === 0 && saved?.state && saved.offset <= upTo) {
      try {
        await hasher.load(Buffer.from(saved.state, 'base64'));
        from = saved.offset;
      } catch {
        // Not a usable state: the hasher is still fresh, and everything is read from disk.
      }
    }
    if (from < upTo) {
      for await (const chunk of createReadStream(dataPath, { start: from, end: upTo - 1, highWaterMark: 1024 * 1024 })) {
        await hasher.update(chunk as Buffer);
      }
    }
    return hasher;
  } catch (err) {
    hasher.close();
    throw err;
  }
}

/**
 * Records what `hasher` has seen (the first `offset` bytes) beside the file. A native hasher is handed over to the
 * parked ones: after this call the caller's `hasher` is closed and only close() (a no-op) may follow.
 */
export async function saveHasher(statePath: string, hasher: ThreadedHasher, offset: number): Promise<void> {
  if (hasher.canSave) {
    const saved: SavedState = { offset, state: Buffer.from(await hasher.save()).toString('base64') };
    unpark(statePath)?.close();
    await writeFile(statePath, JSON.stringify(saved));
    return;
  }
  const ticket = randomUUID();
  const saved: SavedState = { offset, parked: ticket, digest: hasher.digestSoFar()! };
  unpark(statePath)?.close();
  parked.set(statePath, { ticket, hasher: await hasher.handOver() });
  while (parked.size > MAX_PARKED) unpark(parked.keys().next().value!)?.close();
  await writeFile(statePath, JSON.stringify(saved));
}

/** Removes a saved hasher state, and the parked hasher standing for it. */
export async function forgetHasher(statePath: string): Promise<void> {
  unpark(statePath)?.close();
  await rm(statePath, { force: true });
}
