/**
 * bin/haul.mjs runs the bundle that `npm install` builds (apps/cli/dist) with plain node, and the TypeScript source
 * through tsx when there is no current bundle. Both, against a real server, must do the same work: a bundle that
 * lost a command, a chunk or a dependency fails here.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(1024 * MiB);
});
afterAll(() => h?.stop());

describe('the haul entry', () => {
  for (const from of ['bundle', 'source'] as const) {
    it(`runs from its ${from}: version, upload of a folder, ls, get back, and a usage error`, async () => {
      const env = { HAUL_CLI_FROM: from };
      const version = await h.run(['--version'], { env });
      expect(version.code, version.stderr).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);

      const dir = join(h.work, `from-${from}`);
      mkdirSync(dir);
      const files = { 'a.bin': randomBytes(300_000), 'b.txt': Buffer.from(`made from the ${from}\n`) };
      for (const [n, b] of Object.entries(files)) writeFileSync(join(dir, n), b);
      // Uploads load tus and the hashing chunk, get the download path: every lazily loaded part runs.
      const up = await h.json(['upload', dir, '--to', '/entry'], { env });
      expect(up.map((o: { status: string }) => o.status)).toEqual(['uploaded', 'uploaded']);
      const listed = await h.json(['ls', `/entry/from-${from}`], { env });
      expect(listed.map((f: { name: string }) => f.name).sort()).toEqual(Object.keys(files));
      const back = join(h.work, `back-${from}`);
      await h.json(['get', `/entry/from-${from}`, '-o', back], { env });
      for (const [n, b] of Object.entries(files)) expect(readFileSync(join(back, n)).equals(b), n).toBe(true);

      const wrong = await h.run(['mv', 'only-one'], { env });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/haul mv SOURCE… DESTINATION/);
    });
  }

  it('runs the bundle only while no file it was built from has changed since', () => {
    // bin/haul.mjs in a tree of its own: a stand-in bundle entry, and one source file it was "built from".
    const root = mkdtempSync(join(tmpdir(), 'haul-entry-'));
    try {
      mkdirSync(join(root, 'apps/cli/bin'), { recursive: true });
      mkdirSync(join(root, 'apps/cli/dist'));
      copyFileSync(new URL('../bin/haul.mjs', import.meta.url), join(root, 'apps/cli/bin/haul.mjs'));
      writeFileSync(join(root, 'apps/cli/dist/haul-X.js'), "export const main = async (argv) => { console.log('bundle', argv.join(' ')); return 0; };\n");
      const source = join(root, 'apps/cli/main.ts');
      writeFileSync(source, '');
      const builtAt = Date.now() - 60_000;
      writeFileSync(join(root, 'apps/cli/dist/current.json'), JSON.stringify({ entry: 'haul-X.js', builtFrom: builtAt, inputs: ['apps/cli/main.ts'] }));
      const run = () => spawnSync(process.execPath, [join(root, 'apps/cli/bin/haul.mjs'), 'ls', '-l'], { env: { ...process.env, HAUL_CLI_FROM: 'bundle' }, encoding: 'utf8' });

      utimesSync(source, new Date(builtAt - 1000), new Date(builtAt - 1000));
      const current = run();
      expect(current.status, current.stderr).toBe(0);
      expect(current.stdout).toBe('bundle ls -l\n');

      // Edited after the build: not current any more (run from source; with HAUL_CLI_FROM=bundle, refused).
      utimesSync(source, new Date(), new Date());
      const stale = run();
      expect(stale.status).toBe(1);
      expect(stale.stderr).toMatch(/no current bundle/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
