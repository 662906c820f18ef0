/** BLAKE3 of a picked file in the browser (hash-wasm), read in slices so the page stays responsive. */
import { createBLAKE3 } from 'hash-wasm';
import { cidSampleRanges } from '@haul/shared';

/** 4 MiB slices hash in ~10 ms each: no long task, little memory. */
const SLICE = 4 * 1024 * 1024;

async function hashRangesOf(file: Blob, ranges: [number, number][], onBytes?: (n: number) => void, signal?: AbortSignal): Promise<string> {
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

/** The content hash of the whole file; `onProgress` gets 0..1. */
export function hashFile(file: Blob, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  let done = 0;
  return hashRangesOf(file, [[0, file.size]], (n) => onProgress?.(file.size ? (done += n) / file.size : 1), signal);
}

/** The answer to a speed-upload challenge: BLAKE3 of the asked byte ranges, in order. */
export const hashRanges = (file: Blob, ranges: { start: number; end: number }[], signal?: AbortSignal) =>
  hashRangesOf(
    file,
    ranges.map((r) => [r.start, r.end]),
    undefined,
    signal,
  );

/** The content id of a large file: BLAKE3 of three sampled slices (seed 000 §5). */
export const contentId = (file: Blob, signal?: AbortSignal) => hashRangesOf(file, cidSampleRanges(file.size), undefined, signal);
