/**
 * Content hashes of uploads: BLAKE3 (hash-wasm, the server's function) of byte ranges of a Blob, read as a stream.
 * A browser's picked File and Node's fs.openAsBlob are both Blobs, so the web app (in a worker) and the command line
 * hash the same way.
 */
import { createBLAKE3 } from 'hash-wasm';
import { cidSampleRanges } from '@haul/shared/plain';

/** Progress is reported every 4 MiB (and at the end of each range): often enough to move the bar smoothly. */
const REPORT_EVERY = 4 * 1024 * 1024;

export async function hashRangesOf(
  file: Blob,
  ranges: [number, number][],
  onBytes?: (n: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const h = await createBLAKE3();
  h.init();
  for (const [start, end] of ranges) {
    if (end <= start) continue;
    signal?.throwIfAborted();
    // A stream rather than awaiting one slice at a time: the browser fills the stream's buffer while
    // this thread hashes, and the next chunk is asked for before hashing the current one. Awaiting
    // 4 MiB slices ran ~230 MB/s in Chromium even with the next slice already requested (its bytes
    // are copied in on this same thread); the stream ran ~1.5x that.
    const reader = file.slice(start, end).stream().getReader();
    let unreported = 0;
    try {
      let next = reader.read();
      for (;;) {
        const { done, value } = await next;
        if (done) break;
        signal?.throwIfAborted();
        next = reader.read();
        h.update(value);
        unreported += value.length;
        if (unreported >= REPORT_EVERY) {
          onBytes?.(unreported);
          unreported = 0;
        }
      }
    } catch (err) {
      // Stop reading what nobody will hash; the read asked for ahead must not surface as unhandled.
      reader.cancel().catch(() => undefined);
      throw err;
    }
    if (unreported) onBytes?.(unreported);
  }
  return h.digest('hex');
}

/** The content hash of a whole file; `onBytes` gets each hashed chunk's length. */
export const hashBlob = (file: Blob, onBytes?: (n: number) => void, signal?: AbortSignal) => hashRangesOf(file, [[0, file.size]], onBytes, signal);

/** The answer to a speed-upload challenge: BLAKE3 of the asked byte ranges, in order. */
export const hashChallenge = (file: Blob, ranges: { start: number; end: number }[], signal?: AbortSignal) =>
  hashRangesOf(
    file,
    ranges.map((r) => [r.start, r.end]),
    undefined,
    signal,
  );

/** The content id of a large file: BLAKE3 of three sampled slices (seed 000 §5), checked before hashing it all. */
export const sampleContentId = (file: Blob, signal?: AbortSignal) => hashRangesOf(file, cidSampleRanges(file.size), undefined, signal);
