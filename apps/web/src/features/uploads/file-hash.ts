/** BLAKE3 of a picked file (hash-wasm, the server's function), computed in a Web Worker; aborting stops the worker. */
import { cidSampleRanges } from '@haul/shared/plain';
import { hashRangesOf } from '@haul/client/hash';
import type { HashReply, HashRequest } from './hash.worker';

function hashInWorker(file: Blob, ranges: [number, number][], onBytes?: (n: number) => void, signal?: AbortSignal): Promise<string> {
  if (typeof Worker === 'undefined') return hashRangesOf(file, ranges, onBytes, signal);
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const worker = new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
    const done = () => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
    };
    worker.onmessage = (e: MessageEvent<HashReply>) => {
      const m = e.data;
      if ('bytes' in m) onBytes?.(m.bytes);
      else if ('hash' in m) {
        done();
        resolve(m.hash);
      } else {
        done();
        reject(new Error(m.error));
      }
    };
    worker.onerror = (e) => {
      done();
      reject(new Error(e.message || 'hashing failed'));
    };
    worker.postMessage({ file, ranges } satisfies HashRequest);
  });
}

/** The content hash of the whole file; `onProgress` gets 0..1. */
export function hashFile(file: Blob, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  let done = 0;
  return hashInWorker(file, [[0, file.size]], (n) => onProgress?.(file.size ? (done += n) / file.size : 1), signal);
}

/** The answer to a speed-upload challenge: BLAKE3 of the asked byte ranges, in order. */
export const hashRanges = (file: Blob, ranges: { start: number; end: number }[], signal?: AbortSignal) =>
  hashInWorker(
    file,
    ranges.map((r) => [r.start, r.end]),
    undefined,
    signal,
  );

/** The content id of a large file: BLAKE3 of three sampled slices (seed 000 §5). */
export const contentId = (file: Blob, signal?: AbortSignal) => hashInWorker(file, cidSampleRanges(file.size), undefined, signal);
