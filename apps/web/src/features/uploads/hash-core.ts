/** BLAKE3 of byte ranges of a file, read in slices (hash-wasm): run in a worker, or inline where workers are missing. */
import { createBLAKE3 } from 'hash-wasm';

/** 4 MiB slices: little memory, and progress often enough to move the bar smoothly. */
const SLICE = 4 * 1024 * 1024;

export async function hashRangesOf(
  file: Blob,
  ranges: [number, number][],
  onBytes?: (n: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const h = await createBLAKE3();
  h.init();
  for (const [start, end] of ranges) {
    for (let at = start; at < end; at += SLICE) {
      signal?.throwIfAborted();
      const buf = new Uint8Array(await file.slice(at, Math.min(end, at + SLICE)).arrayBuffer());
      h.update(buf);
      onBytes?.(buf.length);
    }
  }
  return h.digest('hex');
}
