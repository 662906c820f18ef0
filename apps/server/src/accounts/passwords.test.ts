/** Password hashing keeps to its slots of libuv's pool, so a flood of sign-ins cannot stall file reads. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HASH_SLOTS, hashPassword, hashesRunning, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('runs at most its slots at once, and a file read started behind 40 of them finishes while most still wait', async () => {
    const stored = await hashPassword('correct horse');
    const dir = mkdtempSync(join(tmpdir(), 'haul-argon-'));
    try {
      const file = join(dir, 'f.bin');
      writeFileSync(file, Buffer.alloc(1024 * 1024, 7));
      let finished = 0;
      let most = 0;
      const guesses = Array.from({ length: 40 }, (_, i) =>
        verifyPassword(stored, `wrong ${i}`).then((ok) => {
          most = Math.max(most, hashesRunning());
          finished++;
          return ok;
        }),
      );
      expect(hashesRunning()).toBe(HASH_SLOTS);
      // libuv's queue is first come, first served: with every thread taken by hashes the read would finish last.
      const read = await readFile(file);
      expect(read.length).toBe(1024 * 1024);
      expect(finished).toBeLessThan(20);
      expect(await Promise.all(guesses)).toEqual(Array(40).fill(false));
      expect(most).toBeLessThanOrEqual(HASH_SLOTS);
      expect(await verifyPassword(stored, 'correct horse')).toBe(true);
      expect(hashesRunning()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
