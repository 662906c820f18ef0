/// <reference types="node" />
import { randomBytes } from 'node:crypto';
import { openAsBlob, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake3 } from 'hash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { cidSampleRanges } from '@haul/shared/plain';
import { blobChunks, hashBlob, hashChallenge, hashRangesOf, READ_BUFFER, sampleContentId } from './hash.js';

// Larger than the two read buffers together, and not a multiple of one, so buffers are reused and the last is partial.
const bytes = randomBytes(2 * READ_BUFFER + 1_234_567);
const dir = mkdtempSync(join(tmpdir(), 'haul-hash-'));
const path = join(dir, 'picked.bin');
writeFileSync(path, bytes);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Blob whose stream has no byte reads (as some streams do): the plain chunks are hashed instead. */
function plainStreamBlob(data: Uint8Array<ArrayBuffer>): Blob {
  const blob = new Blob([data]);
  const wrap = (b: Blob): Blob =>
    ({
      size: b.size,
      slice: (start?: number, end?: number) => wrap(b.slice(start, end)),
      stream: () => {
        const reader = b.stream().getReader();
        return new ReadableStream<Uint8Array>({
          async pull(c) {
            const { done, value } = await reader.read();
            if (done) return c.close();
            // Chunks of a size unlike the read buffer's.
            for (let at = 0; at < value.length; at += 100_000) c.enqueue(value.subarray(at, at + 100_000));
          },
        });
      },
    }) as unknown as Blob;
  return wrap(blob);
}

describe('hashRangesOf', () => {
  it('hashes a whole file as hash-wasm does over the same bytes, from memory and from disk, reporting every byte', async () => {
    const expected = await blake3(bytes);
    for (const blob of [new Blob([bytes]), await openAsBlob(path), plainStreamBlob(bytes)]) {
      const reports: number[] = [];
      expect(await hashBlob(blob, (n) => reports.push(n))).toBe(expected);
      expect(reports.reduce((a, b) => a + b, 0)).toBe(bytes.length);
      // Every 4 MiB or so, not per chunk.
      expect(reports.length).toBeLessThanOrEqual(Math.ceil(bytes.length / (4 * 1024 * 1024)) + 1);
    }
  });

  it('hashes the asked ranges in order as one stream, skipping empty ones (a speed-upload challenge, a content id)', async () => {
    const ranges = [
      [5, 70_000],
      [READ_BUFFER - 10, READ_BUFFER + 300_000],
      [100, 100],
      [bytes.length - 999, bytes.length],
    ] as [number, number][];
    const joined = Buffer.concat(ranges.map(([s, e]) => bytes.subarray(s, e)));
    const blob = await openAsBlob(path);
    expect(await hashRangesOf(blob, ranges)).toBe(await blake3(joined));
    expect(
      await hashChallenge(
        blob,
        ranges.map(([start, end]) => ({ start, end })),
      ),
    ).toBe(await blake3(joined));
    const sampled = Buffer.concat(cidSampleRanges(bytes.length).map(([s, e]) => bytes.subarray(s, e)));
    expect(await sampleContentId(blob)).toBe(await blake3(sampled));
    expect(await hashRangesOf(new Blob([]), [[0, 0]])).toBe(await blake3(new Uint8Array(0)));
  });

  it('stops with the abort reason when aborted part-way, and when aborted before it starts', async () => {
    const ac = new AbortController();
    const reason = new Error('cancelled by the person');
    let seen = 0;
    const hashing = hashBlob(
      new Blob([bytes]),
      (n) => {
        seen += n;
        ac.abort(reason);
      },
      ac.signal,
    );
    await expect(hashing).rejects.toBe(reason);
    expect(seen).toBeLessThan(bytes.length);
    await expect(hashBlob(new Blob([bytes]), undefined, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});

describe('blobChunks', () => {
  it('gives the bytes in order through reused buffers, each view valid until the next is asked for', async () => {
    const seen: Buffer[] = [];
    const buffers = new Set<number>();
    for await (const chunk of blobChunks(await openAsBlob(path))) {
      seen.push(Buffer.from(chunk));
      // A byte read moves its buffer into a new ArrayBuffer object (the old one reads as empty), so look at it now.
      buffers.add(chunk.buffer.byteLength);
    }
    expect(Buffer.concat(seen).equals(bytes)).toBe(true);
    expect([...buffers]).toEqual([READ_BUFFER]);
  });

  it('cancels the stream when the consumer stops early or the hashing is aborted', async () => {
    let cancelled = 0;
    // A byte stream of its own, as a Blob's is, that records being cancelled.
    const blob = {
      size: bytes.length,
      stream: () => {
        let at = 0;
        return new ReadableStream({
          type: 'bytes',
          pull(c) {
            // A copy: a byte stream takes over the buffer it is given.
            c.enqueue(new Uint8Array(bytes.subarray(at, (at += 65_536))));
            if (at >= bytes.length) c.close();
          },
          cancel: () => void cancelled++,
        });
      },
      slice: () => blob,
    } as unknown as Blob;
    for await (const chunk of blobChunks(blob)) {
      expect(chunk.length).toBe(65_536);
      break;
    }
    expect(cancelled).toBe(1);
    const ac = new AbortController();
    await expect(hashBlob(blob, () => ac.abort(new Error('stop')), ac.signal)).rejects.toThrow('stop');
    expect(cancelled).toBe(2);
    expect(await hashBlob(blob)).toBe(await blake3(bytes));
  });
});
