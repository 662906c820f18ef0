/** Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes). */
import { Algorithm, hash, verify } from '@node-rs/argon2';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
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
