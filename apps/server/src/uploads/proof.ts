/**
 * Proof of possession for speed upload: knowing a file's hash is not enough to get its content.
 * The server picks random byte ranges; the client answers with the BLAKE3 hash of those bytes.
 * The challenge is signed and expires, so the server keeps no state between the two calls.
 * A challenge is issued without looking at what is stored (uploads.service.ts asks it for content the server may not
 * hold), so only a right answer learns whether the content exists; for content not held the proof fails.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { findBlob } from '../storage/blobs.repository.js';
import { createContentHasher } from '../storage/content-hash.js';

const RANGE_BYTES = 65536;
const RANGES = 3;
/**
 * At or under this size the proof asks for the whole file, and its answer is the content hash itself: knowing the hash
 * passes it, so it proves nothing about the bytes.
 */
export const WHOLE_FILE_PROOF_BYTES = RANGE_BYTES * RANGES;
const TTL_MS = 10 * 60_000;

export interface ByteRange {
  /** First byte. */
  start: number;
  /** One past the last byte. */
  end: number;
}

export interface ProofChallenge {
  challenge: string;
  ranges: ByteRange[];
}

interface Payload {
  u: string;
  h: string;
  s: number;
  r: [number, number][];
  e: number;
}

function sign(ctx: AppContext, body: string): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(`proof.${body}`).digest('base64url');
}

/** Random ranges inside the file; a small file is asked for whole. */
export function pickRanges(size: number): ByteRange[] {
  if (size <= WHOLE_FILE_PROOF_BYTES) return [{ start: 0, end: size }];
  return Array.from({ length: RANGES }, () => {
    const start = randomInt(0, size - RANGE_BYTES + 1);
    return { start, end: start + RANGE_BYTES };
  }).sort((a, b) => a.start - b.start);
}

export function issueChallenge(ctx: AppContext, userId: string, hash: string, size: number): ProofChallenge {
  const ranges = pickRanges(size);
  const payload: Payload = { u: userId, h: hash, s: size, r: ranges.map((r) => [r.start, r.end]), e: ctx.clock.now() + TTL_MS };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { challenge: `${body}.${sign(ctx, body)}`, ranges };
}

/**
 * True when the challenge is ours, unexpired, for this user and content, the content is stored, and the answer hashes
 * those bytes. Content not stored (or unreadable) fails closed: the bytes are then uploaded.
 */
export async function verifyProof(
  ctx: AppContext,
  userId: string,
  hash: string,
  size: number,
  proof: { challenge: string; answer: string },
): Promise<boolean> {
  const [body, sig] = proof.challenge.split('.');
  if (!body || !sig) return false;
  const expected = Buffer.from(sign(ctx, body));
  if (expected.length !== Buffer.byteLength(sig) || !timingSafeEqual(expected, Buffer.from(sig))) return false;
  let p: Payload;
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  if (p.u !== userId || p.h !== hash || p.s !== size || p.e < ctx.clock.now()) return false;
  const known = await findBlob(ctx.db, hash);
  if (!known || known.size !== size || !(await ctx.blobs.has(hash))) return false;
  const hasher = await createContentHasher();
  try {
    for (const [start, end] of p.r) {
      if (end <= start) continue;
      for await (const chunk of ctx.blobs.read(hash, { start, end: end - 1 })) hasher.update(chunk as Buffer);
    }
  } catch {
    // Gone between the check and the read (a purge): as if never stored.
    return false;
  }
  const actual = Buffer.from(hasher.digest());
  const given = Buffer.from(proof.answer.toLowerCase());
  return actual.length === given.length && timingSafeEqual(actual, given);
}
