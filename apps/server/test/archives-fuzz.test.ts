/**
 * Damaged archives of every format, made here with real tools and then corrupted with a seeded generator (the same
 * inputs every run): truncated, bytes flipped in headers and in data, sizes that lie, empty, random bytes under an
 * archive's name. Each must answer 4xx with the error object when listed and when unpacked, or give a task that
 * completes or fails with a reason of its own; never a 500, and never a folder of what was unpacked before the failure.
 */
import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { stagingRoot } from '../src/archives/archive-staging.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, list, pack, requireTool, settle, tree, upload, Z7 } from './archive-tools.js';
import { lieInTar, lieInZip } from './archives-damage.js';
import { seededRandom } from './seeded-random.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'archives');

/** `count` bytes flipped (XOR with a non-zero value) between `from` and `to`. */
function flip(bytes: Buffer, rnd: () => number, from: number, to: number, count = 4): Buffer {
  const out = Buffer.from(bytes);
  const span = Math.max(1, Math.min(to, out.length) - from);
  for (let i = 0; i < count; i++) out[from + Math.floor(rnd() * span)]! ^= 1 + Math.floor(rnd() * 255);
  return out;
}

/** The damaged variants of one archive; `lies` are its format's own lying sizes. */
function damaged(bytes: Buffer, seed: number, lies: [string, Buffer][] = []): [string, Buffer][] {
  const rnd = seededRandom(seed);
  const n = bytes.length;
  const cut = (f: number) => bytes.subarray(0, Math.max(1, Math.floor(n * f + rnd() * 16)));
  return [
    ['empty', Buffer.alloc(0)],
    ['random', Buffer.from(Array.from({ length: 2048 }, () => Math.floor(rnd() * 256)))],
    ['cut-10', cut(0.1)],
    ['cut-50', cut(0.5)],
    ['cut-90', cut(0.9)],
    ['cut-last', bytes.subarray(0, n - 1)],
    ['head-flip', flip(bytes, rnd, 0, 64)],
    ['head-flip-2', flip(bytes, rnd, 0, 512, 8)],
    ['tail-flip', flip(bytes, rnd, Math.max(0, n - 120), n)],
    ['data-flip', flip(bytes, rnd, Math.floor(n * 0.3), Math.floor(n * 0.7))],
    ['data-flip-2', flip(bytes, rnd, Math.floor(n * 0.1), Math.floor(n * 0.9), 16)],
    ...lies,
  ];
}

describe('damaged archives', { timeout: 60_000 }, () => {
  let h: TestHaul;
  let t: TokenResponse;
  const cases: [string, Buffer][] = [];
  beforeAll(async () => {
    Z7();
    const zip = requireTool('zip', 'apt-get install zip');
    requireTool('tar', 'apt-get install tar');
    // Several entries, some compressible, so that damage lands in headers, data and the index at the end.
    const files = { 'a.txt': 'alpha\n'.repeat(200), 'docs/b.md': '# bravo\n', 'docs/c.bin': Buffer.from(Array.from({ length: 9000 }, (_, i) => (i * 31) % 251)), 'd.txt': 'delta\n' };
    const dir = tree(files);
    const tarBytes = pack(dir, 'tar', ['cf', 'x.tar', 'a.txt', 'docs', 'd.txt'], 'x.tar');
    const zipBytes = pack(dir, zip, ['-qr', 'x.zip', 'a.txt', 'docs', 'd.txt'], 'x.zip');
    const bases: [string, Buffer, [string, Buffer][]][] = [
      ['zip', zipBytes, [['lie-up', lieInZip(zipBytes, 'docs/c.bin', 90_000)], ['lie-down', lieInZip(zipBytes, 'docs/c.bin', 100)]]],
      ['7z', pack(dir, Z7(), ['a', '-t7z', 'x.7z', 'a.txt', 'docs', 'd.txt'], 'x.7z'), []],
      ['rar', readFileSync(join(FIXTURES, 'Rar5.rar')), []],
      ['tar', tarBytes, [['lie-up', lieInTar(tarBytes, 'docs/c.bin', 90_000)], ['lie-first', lieInTar(tarBytes, 'a.txt', 4000)], ['lie-down', lieInTar(tarBytes, 'docs/c.bin', 100)]]],
      ['tar.gz', gzipSync(tarBytes), [['lie-up', gzipSync(lieInTar(tarBytes, 'docs/c.bin', 90_000))]]],
    ];
    bases.forEach(([ext, bytes, lies], i) => {
      for (const [what, b] of damaged(bytes, 1000 + i, lies)) cases.push([`${what}.${ext}`, b]);
    });
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** Files of the account that are not the uploaded archives: what unpacking placed. */
  const placed = async () =>
    (await h.ctx.db.selectFrom('files').select('name').where('user_id', '=', t.sub).where('trashed', '=', 0).execute()).filter((r) => !cases.some(([n]) => n === r.name)).length;

  /** A 4xx answer carrying the error object. */
  function refused(res: { status: number; body: any }, what: string): void {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    expect(typeof res.body.error, what).toBe('string');
    expect(res.body.error_description, what).toMatch(/\w/);
  }

  it('answers 4xx or a task that ends on its own terms, for every damaged input', async () => {
    expect(cases.length).toBeGreaterThan(55);
    const outcomes: Record<string, number> = {};
    const seen = (k: string) => void (outcomes[k] = (outcomes[k] ?? 0) + 1);
    for (const [name, bytes] of cases) {
      const id = await upload(h, t, name, bytes);
      const listed = await list(h, t.access_token, id);
      if (listed.status !== 200) refused(listed, `list ${name}`);
      const before = await placed();
      const res = await decompress(h, t.access_token, id);
      if (res.status !== 200) {
        refused(res, `unpack ${name}`);
        seen('refused');
        continue;
      }
      const end = await settle(h, t.access_token, res.body.task.id);
      if (end.task.phase === 'PHASE_TYPE_ERROR') {
        seen('failed');
        // A reason of the archive's, not the catch-all of a failure nobody foresaw.
        expect(end.task.message, name).toMatch(/\w/);
        expect(end.task.message, name).not.toMatch(/failed on the server|exit \d|could not read/);
        expect(await placed(), `${name}: nothing placed`).toBe(before);
      } else {
        seen('completed');
        expect(end.task.phase, name).toBe('PHASE_TYPE_COMPLETE');
      }
      expect(readdirSync(stagingRoot(h.ctx)), `${name}: staging swept`).toEqual([]);
    }
    // Most damage is refused when listing; some gets as far as a task, which must then fail on its own terms.
    expect(outcomes.refused ?? 0).toBeGreaterThan(30);
    expect(outcomes.failed ?? 0).toBeGreaterThan(3);
  });

  it('a tar whose header claims more bytes than it holds is a 400 on list and on unpack', async () => {
    const dir = tree({ 'a.txt': 'alpha\n', 'b.bin': Buffer.alloc(3000, 9), 'c.txt': 'charlie\n' });
    const lying = lieInTar(pack(dir, 'tar', ['cf', 'l.tar', 'a.txt', 'b.bin', 'c.txt'], 'l.tar'), 'b.bin', 9000);
    for (const [name, bytes] of [['lying.tar', lying], ['lying.tar.gz', gzipSync(lying)]] as const) {
      const id = await upload(h, t, name, bytes);
      const listed = await list(h, t.access_token, id);
      expect(listed.status, JSON.stringify(listed.body)).toBe(400);
      expect(listed.body.error).toBe('invalid_argument');
      expect(listed.body.error_description).toMatch(/damaged/);
      const res = await decompress(h, t.access_token, id);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_argument');
    }
  });
});
