/**
 * kill -9 in the middle of unpacking: the real server in a child process unpacks a 7z of many entries, is killed
 * half-way and started again on the same data directory (and database). The task completes exactly once: one folder,
 * every entry once with its content, and the folder never shows before it is whole.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { pack, tree, Z7 } from './archive-tools.js';
import { crashTestEnv, database, HaulProcess, until } from './child-server.js';

const ENTRIES = 400;
const work = mkdtempSync(join(tmpdir(), 'haul-arc-crash-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('kill -9 during unpacking', { timeout: 240_000 }, () => {
  it('goes on after a restart and lands every entry exactly once', async () => {
    const files = Object.fromEntries(Array.from({ length: ENTRIES }, (_, i) => [`big/part-${String(i).padStart(3, '0')}.bin`, randomBytes(32 * 1024)]));
    // Not solid: each entry is read on its own, so the run takes long enough to be killed half-way.
    const archive = pack(tree(files), Z7(), ['a', '-t7z', '-ms=off', '-mx=1', 'big.7z', 'big'], 'big.7z');
    const origin = createServer((_req, res) => res.writeHead(200, { 'content-length': archive.length }).end(archive));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    // Small entries unpack in batches of 200, quicker than the test can watch: 7zz as the server runs it, held 30 s at
    // its second extraction, so the crash lands after the first batch and before the second.
    const count = join(work, 'runs');
    const marker = join(work, 'held.pid');
    const bin = join(work, 'held-7zz');
    mkdirSync(count);
    writeFileSync(bin, `#!/bin/sh\nif [ "$1" = e ]; then mktemp '${count}/e.XXXXXX' > /dev/null; if [ $(ls '${count}' | wc -l) -eq 2 ]; then echo $$ > '${marker}'; sleep 30; fi; fi\nexec '${Z7()}' "$@"\n`);
    chmodSync(bin, 0o755);
    const db = await database();
    const dataDir = mkdtempSync(join(work, 'data-'));
    const haul = new HaulProcess(await freeLoopbackPort(), crashTestEnv(dataDir, db, { HAUL_7ZZ_PATH: bin }));
    try {
      await haul.start();
      const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'unpack-crash@example.com', password: 'correct horse' });
      // The archive arrives as a cloud download from a loopback origin.
      const url = `http://127.0.0.1:${(origin.address() as { port: number }).port}/big.7z`;
      const fetched = await haul.call('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
      const download = await until(() => haul.call('GET', `/drive/v1/tasks/${fetched.task.id}`, t.access_token), (x) => x.phase === 'PHASE_TYPE_COMPLETE');

      const started = await haul.call('POST', '/decompress/v1/decompress', t.access_token, { file_id: download.file_id });
      const taskId = started.task.id;
      // Nothing of the folder may show before the task is complete, across both lives of the server.
      let early = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const [list, task] = await Promise.all([
            haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token).catch(() => null),
            haul.call('GET', `/decompress/v1/progress?task_id=${taskId}`, t.access_token).catch(() => null),
          ]);
          if (list && task && task.task.phase !== 'PHASE_TYPE_COMPLETE' && list.files.some((f: { name: string }) => f.name === 'big')) early++;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      const before = await until(() => haul.call('GET', `/decompress/v1/progress?task_id=${taskId}`, t.access_token), (x) => x.task.phase === 'PHASE_TYPE_ERROR' || (x.task.progress >= 15 && existsSync(marker)));
      expect(before.task.phase, before.task.message).toBe('PHASE_TYPE_RUNNING');
      await haul.crash();
      expect(before.task.progress).toBeLessThan(70);
      await haul.start();
      const done = await until(
        () => haul.call('GET', `/decompress/v1/progress?task_id=${taskId}`, t.access_token),
        (x) => x.task.phase === 'PHASE_TYPE_COMPLETE' || x.task.phase === 'PHASE_TYPE_ERROR',
      );
      watching = false;
      await watch;
      expect(done.task.phase, done.task.message).toBe('PHASE_TYPE_COMPLETE');
      expect(early).toBe(0);

      const root = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token);
      expect(root.files.map((f: { name: string }) => f.name).sort()).toEqual(['big', 'big.7z']);
      const inner = root.files.find((f: { name: string }) => f.name === 'big');
      const top = await haul.call('GET', `/drive/v1/files?parent_id=${inner.id}&limit=100`, t.access_token);
      expect(top.files.map((f: { name: string }) => f.name)).toEqual(['big']);
      const landed = await haul.call('GET', `/drive/v1/files?parent_id=${top.files[0].id}&limit=500`, t.access_token);
      expect(landed.files.length).toBe(ENTRIES);
      const want = new Map(await Promise.all(Object.entries(files).map(async ([p, c]) => [p.slice(4), await contentHashOf(c)] as const)));
      for (const f of landed.files as { name: string; hash: string }[]) expect(f.hash).toBe(want.get(f.name));
    } finally {
      if (haul.child) await haul.crash();
      // The held run of the first life, if it still sleeps: it was started for this test.
      if (existsSync(marker)) {
        try {
          process.kill(Number(readFileSync(marker, 'utf8').trim()), 'SIGKILL');
        } catch {
          // Already ended.
        }
      }
      origin.close();
      await db.drop();
    }
  });
});
