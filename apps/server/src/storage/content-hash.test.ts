import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBLAKE3 } from 'hash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { blake3Description, contentHashOf, createContentHasher, defaultBlake3Engine, hashingTap, type Blake3Engine } from './content-hash.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'haul-content-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function wasmDigest(data: Uint8Array): Promise<string> {
  const h = await createBLAKE3();
  h.init();
  h.update(data);
  return h.digest('hex');
}

/** The reference: Debian's b3sum over the same bytes in a file. */
async function b3sum(data: Uint8Array): Promise<string> {
  const path = join(dir, `b3-${data.length}`);
  writeFileSync(path, data);
  const { stdout } = await run('b3sum', ['--no-names', path], { maxBuffer: 1 << 20 });
  return stdout.trim();
}

/** Feeds `data` to a new hasher of `engine` in chunks of the given sizes, round and round. */
async function digestOf(engine: Blake3Engine, data: Uint8Array, sizes: number[]): Promise<string> {
  const h = await createContentHasher({ engine });
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    h.update(data.subarray(at, at + n));
    at += n;
  }
  return h.digest();
}

const KiB = 1024;
const cases: [string, number][] = [
  ['empty input', 0],
  ['1 byte', 1],
  ['1023 bytes (a chunk less one)', 1023],
  ['1024 bytes (one chunk)', 1024],
  ['1025 bytes (a chunk and one)', 1025],
  ['64 KiB less one', 64 * KiB - 1],
  ['64 KiB', 64 * KiB],
  ['64 KiB and one', 64 * KiB + 1],
  ['3 MiB and 7', 3 * KiB * KiB + 7],
];

describe('content hash (BLAKE3)', () => {
  it('runs the native BLAKE3 here, and says so', () => {
    // The binary ships for this platform: the fallback here would be a packaging fault, not a choice.
    expect(defaultBlake3Engine).toBe('native');
    expect(blake3Description()).toMatch(/native/);
  });

  it.each(cases)('native and hash-wasm agree with b3sum: %s', async (_name, size) => {
    const data = randomBytes(size);
    const want = await b3sum(data);
    expect(await wasmDigest(data)).toBe(want);
    for (const engine of ['native', 'wasm'] as const) {
      expect(await contentHashOf(data, { engine })).toBe(want);
      // Splits that straddle the chunk (1 KiB) and block (64 B) edges.
      expect(await digestOf(engine, data, [1, 63, 1023, 1025, 65_537, 7])).toBe(want);
      expect(await digestOf(engine, data, [1024])).toBe(want);
    }
  });

  it('agrees with b3sum over 100 MB fed in 64 KiB reads, on both engines', async () => {
    const data = randomBytes(100 * 1000 * 1000);
    const want = await b3sum(data);
    expect(await digestOf('native', data, [64 * KiB])).toBe(want);
    expect(await digestOf('wasm', data, [64 * KiB + 1, 16 * KiB * KiB])).toBe(want);
  }, 60_000);

  it('forces hash-wasm with HAUL_BLAKE3=wasm, with the same digests', async () => {
    const data = randomBytes(1_000_003);
    const path = join(dir, 'forced');
    writeFileSync(path, data);
    const script = join(dir, 'forced.mts');
    const mod = JSON.stringify(new URL('./content-hash.ts', import.meta.url).pathname);
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';\nimport { blake3Description, contentHashOf, defaultBlake3Engine } from ${mod};\n` +
        `console.log(defaultBlake3Engine, await contentHashOf(readFileSync(${JSON.stringify(path)}), { engine: 'native' }));\nconsole.log(blake3Description());\n`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
      cwd: import.meta.dirname,
      env: { ...process.env, HAUL_BLAKE3: 'wasm' },
      timeout: 30_000,
    });
    const [first, second] = stdout.trim().split('\n');
    // Asked for native, it falls back: the process cannot load it.
    expect(first).toBe(`wasm ${await b3sum(data)}`);
    expect(second).toMatch(/hash-wasm.*HAUL_BLAKE3=wasm/);
  });

  it('hashingTap passes the same chunks on and gives their hash and size', async () => {
    const parts = [randomBytes(1), randomBytes(70_000), randomBytes(1025), Buffer.alloc(0), randomBytes(3)];
    const { tap, result } = await hashingTap();
    const seen: Buffer[] = [];
    await pipeline(Readable.from(parts), tap, new Writable({ write: (c: Buffer, _e, cb) => (seen.push(c), cb()) }));
    const all = Buffer.concat(parts);
    expect(Buffer.concat(seen).equals(all)).toBe(true);
    expect(result()).toEqual({ hash: await b3sum(all), size: all.length });
  });
});
