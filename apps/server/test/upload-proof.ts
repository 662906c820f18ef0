/**
 * The two steps of creating an upload that declares its hash, as the web app and the command line take them: a file
 * over the proof threshold is always asked for a proof of possession (stored content or not), answered here from the
 * bytes held; the second answer is the instant file, or the resumable upload to send the bytes to.
 */
import { contentHashOf } from '../src/storage/content-hash.js';

export interface ByteRange {
  start: number;
  end: number;
}

/** BLAKE3 of the asked ranges of `content`: the answer to a proof of possession. */
export const proofAnswer = (content: Buffer, ranges: ByteRange[]) => contentHashOf(Buffer.concat(ranges.map((r) => content.subarray(r.start, r.end))));

/** Posts `body` with `post`, and once more with the proof when one is asked; answers the last answer. */
export async function createProven<R extends { body: any }>(post: (body: Record<string, unknown>) => Promise<R>, body: Record<string, unknown>, content: Buffer): Promise<R> {
  const first = await post(body);
  const asked = first.body?.proof_of_possession as { challenge: string; ranges: ByteRange[] } | undefined;
  if (!asked) return first;
  return post({ ...body, proof: { challenge: asked.challenge, answer: await proofAnswer(content, asked.ranges) } });
}
