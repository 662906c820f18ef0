/**
 * Small entries are unpacked in batches, one 7zz run writing many: counted here through a wrapper that logs each run
 * and then runs the real 7zz. A batch keeps a single run's guards: an entry whose header lies still fails the task,
 * nothing is placed, staging is emptied.
 */
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { stagingRoot } from '../src/archives/archive-staging.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, pack, requireTool, settle, sha256, tree, upload, Z7 } from './archive-tools.js';
import { lieInZip } from './archives-damage.js';
import { scratchDir } from './scratch.js';

describe('unpacking in batches', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let runs: string;
  let zip: string;
  beforeAll(async () => {
    zip = requireTool('zip', 'apt-get install zip');
    const work = scratchDir('haul-arc-batch-');
    runs = join(work, 'runs');
    mkdirSync(runs);
    const bin = join(work, 'counted-7zz');
    // An empty file per run: the run is held to its entries' size (RLIMIT_FSIZE), so a log it wrote would trip it.
    writeFileSync(bin, `#!/bin/sh\nmktemp '${runs}/'"$1".XXXXXX > /dev/null\nexec '${Z7()}' "$@"\n`);
    chmodSync(bin, 0o755);
    h = await startTestHaul({ sevenZipPath: bin, archiveMaxEntries: 1000 });
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** Extraction runs since the last call. */
  const extractions = () => {
    const made = readdirSync(runs);
    for (const f of made) rmSync(join(runs, f));
    return made.filter((f) => f.startsWith('e.')).length;
  };

  it('unpacks 301 small files of a zip in two 7zz runs and a large one in a third, every byte where it belongs', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 7}/f${i}.txt`, `entry ${i}\n`.repeat(1 + (i % 40))]));
    // An empty file and one past the batch size among them: both run as they should.
    Object.assign(files, { 'empty.txt': '', 'big.bin': Buffer.alloc(1_500_000, 5) });
    const id = await upload(h, t, 'many.zip', pack(tree(files), zip, ['-qr', 'many.zip', '.'], 'many.zip'));
    extractions();
    const res = await decompress(h, t.access_token, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual(Object.fromEntries(Object.entries(files).map(([p, c]) => [p, sha256(c)])));
    // 301 small entries in batches of 200, the large one alone: three runs where there were 302.
    expect(extractions()).toBe(3);
    expect(readdirSync(stagingRoot(h.ctx))).toEqual([]);
  });

  it('an entry whose header lies, in the middle of a batch, fails the task in that one run and places nothing', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, `line ${i}\n`.repeat(300)]));
    const honest = pack(tree(files), zip, ['-q', '-0', 'l.zip', ...Object.keys(files)], 'l.zip');
    const id = await upload(h, t, 'lying.zip', lieInZip(honest, 'f15.txt', 100));
    const before = await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', t.sub).execute();
    extractions();
    const res = await decompress(h, t.access_token, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase).toBe('PHASE_TYPE_ERROR');
    // 7zz holds the entry to its declared size itself and says the data is wrong; the kernel's limit is the second guard.
    expect(end.task.message).toMatch(/damaged/);
    expect(await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', t.sub).execute()).toHaveLength(before.length);
    expect(readdirSync(stagingRoot(h.ctx))).toEqual([]);
    // One run for all 30, where a run per entry took 16 to reach it.
    expect(extractions()).toBe(1);
  });
});
