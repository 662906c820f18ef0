/**
 * Content hashes of uploads: BLAKE3 (hash-wasm, the server's function) of byte ranges of a Blob, read as a stream.
 * A browser's picked File and Node's fs.openAsBlob are both Blobs, so the web app (in a worker) and the command line
 * hash the same way.
 */
import { createBLAKE3 } from 'hash-wasm';
import { cidSampleRanges } from '@haul/shared/plain';

/** Progress is reported every 4 MiB (and at the end of each range): often enough to move the bar smoothly. */
const REPORT_EVERY = 4 * 1024 * 1024;
/**
 * The stream is read into two buffers of this size in turn, so the browser fills one while this thread hashes the
 * other, and no buffer is allocated per chunk. For 1 GB in Chromium's worker, 4 MiB measured best or within the
 * noise of the best; 1 MiB was slower (bench/README.md, "BLAKE3 in the browser's worker").
 */
export const READ_BUFFER = 4 * 1024 * 1024;
const BUFFERS = 2;

/**
 * The bytes of `blob` in order, as views that stay valid until the next one is asked for. A byte stream is read
 * into reused buffers with a read always waiting ahead; a stream without byte reads falls back to its own chunks.
 */
export async function* blobChunks(blob: Blob, signal?: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
  const stream = blob.stream();
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: read its chunks as they come, the next one asked for before the current is used.
  }
  const reader = byob ?? stream.getReader();
  const pending: Promise<ReadableStreamReadResult<Uint8Array>>[] = [];
  const ask = (buffer?: ArrayBufferLike) =>
    pending.push(
      byob ? byob.read(new Uint8Array(buffer ?? new ArrayBuffer(READ_BUFFER))) : (reader as ReadableStreamDefaultReader<Uint8Array>).read(),
    );
  let finished = false;
  try {
    for (let i = 0; i < (byob ? BUFFERS : 1); i++) ask();
    for (;;) {
      const { done, value } = await pending.shift()!;
      if (done) break;
      signal?.throwIfAborted();
      // A byte read may fill its buffer only partly; the buffer goes back once the view is used.
      if (!byob) ask();
      yield value;
      if (byob) ask(value.buffer);
    }
    finished = true;
  } finally {
    if (!finished) {
      // Stopped early (an abort, an error, the consumer gone): the reads asked for ahead must not surface as
      // unhandled, and nobody will hash the rest.
      for (const p of pending) p.catch(() => undefined);
      reader.cancel().catch(() => undefined);
    }
  }
}

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
    let unreported = 0;
    for await (const chunk of blobChunks(file.slice(start, end), signal)) {
      h.update(chunk);
      unreported += chunk.length;
      if (unreported >= REPORT_EVERY) {
        onBytes?.(unreported);
        unreported = 0;
      }
    }
    if (unreported) onBytes?.(unreported);
  }
  return h.digest('hex');
}

/** The content hash of a whole file; `onBytes` gets each hashed chunk's length. */
export const hashBlob = (file: Blob, onBytes?: (n: number) => void, signal?: AbortSignal) =>
  hashRangesOf(file, [[0, file.size]], onBytes, signal);

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
