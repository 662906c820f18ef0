/**
 * The staging folder entries are written into before they enter the store: names with spaces at their ends (zip and
 * 7z made here with real tools), links and climbing paths that must not reach outside it, and kill -9 while 7zz is
 * writing into it (the real server in a child process, started again on the same data directory and database).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, pack, requireTool, settle, sha256, tree, upload, Z7 } from './archive-tools.js';
import { crashTestEnv, database, HaulProcess, until } from './child-server.js';

const work = mkdtempSync(join(tmpdir(), 'haul-arc-staging-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every path under `dir` (folders included), relative to it. */
function walk(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => [`${prefix}${d.name}`, ...(d.isDirectory() ? walk(join(dir, d.name), `${prefix}${d.name}/`) : [])]);
}

const SPACED = { ' a.txt': 'A\n', 'b.txt ': 'B\n', 'c. ': 'C\n', 'a.txt': 'D\n', ' d /e.txt': 'E\n' };

describe('unpacking through staging', () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  for (const [name, make] of [
    ['spaced.zip', (d: string) => pack(d, requireTool('zip', 'apt-get install zip'), ['-qr', 'spaced.zip', '.'], 'spaced.zip')],
    ['spaced.7z', (d: string) => pack(d, Z7(), ['a', '-t7z', 'spaced.7z', '.'], 'spaced.7z')],
  ] as const) {
    it(`${name}: names with spaces at their ends are listed, unpacked trimmed, and a clash renamed by the drive`, async () => {
      const id = await upload(h, t, name, make(tree(SPACED)));
      const listed = await list(h, t.access_token, id);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const files = listed.body.files.filter((f: { kind: string }) => f.kind === 'drive#file');
      expect(files.map((f: { path: string; skipped: string }) => [f.path, f.skipped]).sort()).toEqual(Object.keys(SPACED).map((p) => [p, '']).sort());
      const res = await decompress(h, t.access_token, id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const end = await settle(h, t.access_token, res.body.task.id);
      expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
      const got = await drivedTree(h, t.sub, end.task.file_id);
      expect(Object.keys(got).sort()).toEqual(['a (1).txt', 'a.txt', 'b.txt', 'c.', 'd/e.txt']);
      expect(got['b.txt']).toBe(sha256('B\n'));
      expect(got['c.']).toBe(sha256('C\n'));
      expect(got['d/e.txt']).toBe(sha256('E\n'));
      // Which of the two lands first follows the archive's order; both land, neither is lost.
      expect([got['a.txt'], got['a (1).txt']].sort()).toEqual([sha256('A\n'), sha256('D\n')].sort());
    });
  }

  it('a link or a climbing path cannot leave the staging folder, and staging is empty once the task ends', async () => {
    const dir = tree({ 'real.txt': 'real' });
    execFileSync('ln', ['-s', '/etc/passwd', join(dir, 'link')]);
    execFileSync('ln', ['-s', '..', join(dir, 'up')]);
    const script = 'import sys,zipfile\nz=zipfile.ZipFile(sys.argv[1],"a")\nz.writestr("../escape.txt","x")\nz.writestr("up/escape2.txt","y")\nz.close()';
    const zipPath = join(dir, 'evil.zip');
    execFileSync(requireTool('zip', 'apt-get install zip'), ['-qry', zipPath, 'real.txt', 'link', 'up'], { cwd: dir });
    execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, zipPath]);
    const id = await upload(h, t, 'evil.zip', readFileSync(zipPath));
    const res = await decompress(h, t.access_token, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    const got = await drivedTree(h, t.sub, end.task.file_id);
    expect(got['real.txt']).toBe(sha256('real'));
    expect(Object.keys(got)).not.toContain('link');
    const data = h.ctx.config.dataDir;
    const everything = walk(data);
    expect(everything.filter((p) => /escape/.test(p))).toEqual([]);
    expect(everything.filter((p) => lstatSync(join(data, p)).isSymbolicLink())).toEqual([]);
    expect(walk(join(data, 'archives', 'staging'))).toEqual([]);
  });
});

describe('kill -9 while 7zz writes into staging', { timeout: 240_000 }, () => {
  it('leaves nothing behind after the restart, and the task completes exactly once', async () => {
    const files = { ' spaced.bin': randomBytes(512 * 1024), 'big/one.bin': randomBytes(2 * 1024 * 1024), 'big/two.bin': randomBytes(1024 * 1024) };
    const archive = pack(tree(files), Z7(), ['a', '-tzip', '-mx=1', 'staged.zip', '.'], 'staged.zip');
    // 7zz as the server runs it, held 30 s at its first extraction: the crash then lands while a staged file is open.
    const marker = join(work, 'held.pid');
    const bin = join(work, 'held-7zz');
    writeFileSync(bin, `#!/bin/sh\nif [ "$1" = e ] && [ ! -e '${marker}' ]; then echo $$ > '${marker}'; sleep 30; fi\nexec '${Z7()}' "$@"\n`);
    chmodSync(bin, 0o755);
    const origin = createServer((_req, res) => res.writeHead(200, { 'content-length': archive.length }).end(archive));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const db = await database();
    const dataDir = mkdtempSync(join(work, 'data-'));
    const haul = new HaulProcess(await freeLoopbackPort(), crashTestEnv(dataDir, db, { HAUL_7ZZ_PATH: bin }));
    try {
      await haul.start();
      const tk = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'staging-crash@example.com', password: 'correct horse' });
      const url = `http://127.0.0.1:${(origin.address() as { port: number }).port}/staged.zip`;
      const fetched = await haul.call('POST', '/drive/v1/files', tk.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
      const download = await until(() => haul.call('GET', `/drive/v1/tasks/${fetched.task.id}`, tk.access_token), (x) => x.phase === 'PHASE_TYPE_COMPLETE');
      const started = await haul.call('POST', '/decompress/v1/decompress', tk.access_token, { file_id: download.file_id });
      const taskId = started.task.id;
      const staging = join(dataDir, 'archives', 'staging');
      await until(async () => walk(join(staging, taskId)), (x) => x.some((p) => p.endsWith('.part')) && existsSync(marker));
      await haul.crash();
      // The staged file of the interrupted run is still there until the task runs again.
      expect(walk(join(staging, taskId)).filter((p) => p.endsWith('.part'))).toHaveLength(1);
      await haul.start();
      const done = await until(
        () => haul.call('GET', `/decompress/v1/progress?task_id=${taskId}`, tk.access_token),
        (x) => x.task.phase === 'PHASE_TYPE_COMPLETE' || x.task.phase === 'PHASE_TYPE_ERROR',
      );
      expect(done.task.phase, done.task.message).toBe('PHASE_TYPE_COMPLETE');
      expect(walk(staging)).toEqual([]);
      const root = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', tk.access_token);
      expect(root.files.map((f: { name: string }) => f.name).sort()).toEqual(['staged', 'staged.zip']);
      const folder = root.files.find((f: { name: string }) => f.name === 'staged');
      const top = await haul.call('GET', `/drive/v1/files?parent_id=${folder.id}&limit=100`, tk.access_token);
      expect(top.files.map((f: { name: string }) => f.name).sort()).toEqual(['big', 'spaced.bin']);
      const spaced = top.files.find((f: { name: string }) => f.name === 'spaced.bin');
      expect(spaced.hash).toBe(await contentHashOf(files[' spaced.bin']));
      const big = await haul.call('GET', `/drive/v1/files?parent_id=${top.files.find((f: { name: string }) => f.name === 'big').id}&limit=100`, tk.access_token);
      expect(big.files.map((f: { name: string; hash: string }) => [f.name, f.hash]).sort()).toEqual([
        ['one.bin', await contentHashOf(files['big/one.bin'])],
        ['two.bin', await contentHashOf(files['big/two.bin'])],
      ]);
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
