/// <reference lib="webworker" />
/** Hashes off the main thread, so a 20 GB file never makes the page stutter. */
import { hashRangesOf } from '@haul/client/hash';

export interface HashRequest {
  file: Blob;
  ranges: [number, number][];
}
export type HashReply = { bytes: number } | { hash: string } | { error: string };

const post = (m: HashReply) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

self.onmessage = async (e: MessageEvent<HashRequest>) => {
  let pending = 0;
  let last = 0;
  try {
    const hash = await hashRangesOf(e.data.file, e.data.ranges, (n) => {
      pending += n;
      const now = performance.now();
      if (now - last > 100) {
        post({ bytes: pending });
        pending = 0;
        last = now;
      }
    });
    if (pending) post({ bytes: pending });
    post({ hash });
  } catch (err) {
    post({ error: (err as Error).message });
  }
};
