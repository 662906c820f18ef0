/**
 * Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes). Each hash runs on libuv's thread pool, which
 * file reads and writes share: a flood of sign-ins would otherwise take every thread and stall downloads. So at most
 * `HASH_SLOTS` hashes run at once; the rest wait their turn here, and file work always finds a thread.
 */
import { Algorithm, hash, verify } from '@node-rs/argon2';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** libuv's pool has 4 threads unless the operator set UV_THREADPOOL_SIZE: hashing may take half of them. */
export const HASH_SLOTS = Math.max(1, Math.floor(Number(process.env.UV_THREADPOOL_SIZE || 4) / 2));

let running = 0;
const queue: (() => void)[] = [];

/** Runs `fn` once a hashing slot is free. */
export async function inHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) await new Promise<void>((r) => queue.push(r));
  else running++;
  try {
    return await fn();
  } finally {
    // The slot passes straight to the next waiter, so `running` counts it without a gap another caller could take.
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

/** Hashes running now (for the tests). */
export const hashesRunning = () => running;

export function hashPassword(password: string): Promise<string> {
  return inHashSlot(() => hash(password, OPTIONS));
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await inHashSlot(() => verify(stored, password));
  } catch {
    return false;
  }
}

// A fixed hash to verify against when the account does not exist, so timing does not reveal which emails exist.
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  return dummyHash;
}
