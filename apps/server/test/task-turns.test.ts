/**
 * Accounts take turns at background work: a greedy account's queue of slow cloud downloads neither fills every slot
 * nor keeps a quiet account's small download waiting behind all of it.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { until } from './child-server.js';
import { pack, requireTool, settle, tree, upload } from './archive-tools.js';

/**
 * Each path's own bytes; paths under /slow/ take about a second to send while `slow.on` holds (once the turns are seen,
 * the rest of the queue may come at once).
 */
function origin(slow: { on: boolean }): Server {
  return createServer((req, res) => {
    const body = Buffer.alloc(req.url!.startsWith('/slow/') ? 200_000 : 1024, createHash('sha256').update(req.url!).digest());
    res.writeHead(200, { 'content-length': body.length });
    if (!req.url!.startsWith('/slow/') || !slow.on) return void res.end(body);
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      at += 20_000;
      if (at >= body.length) {
        clearInterval(timer);
        res.end(body.subarray(at - 20_000));
      } else res.write(body.subarray(at - 20_000, at));
    }, 100);
  });
}

describe('accounts taking turns at cloud downloads', { timeout: 60_000 }, () => {
  const slow = { on: true };
  const server = origin(slow);
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const add = async (h: TestHaul, who: TokenResponse, paths: string[]) =>
    ((await h.api('POST', '/drive/v1/files', who.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: paths.map((p) => base + p).join('\n') } })).body.tasks as { id: string }[]).map((t) => t.id);
  const phase = async (h: TestHaul, who: TokenResponse, id: string) => (await h.api('GET', `/drive/v1/tasks/${id}`, who.access_token)).body.phase as string;
  const done = (p: string) => p === 'PHASE_TYPE_COMPLETE' || p === 'PHASE_TYPE_ERROR';

  /** Greedy queues four slow downloads, then quiet one small one: how many of greedy's are still unfinished when quiet's ends. */
  async function greedyLeftWhenQuietDone(concurrency: number): Promise<number> {
    const h = await startTestHaul({ allowPrivateNetwork: true, offlineConcurrency: concurrency });
    slow.on = true;
    try {
      const greedy = await h.signUp();
      const quiet = await h.signUp();
      const mine = await add(h, greedy, ['/slow/1', '/slow/2', '/slow/3', '/slow/4']);
      const theirs = (await add(h, quiet, ['/small']))[0]!;
      h.offline.start();
      await until(() => phase(h, quiet, theirs), done, 30_000);
      expect(await phase(h, quiet, theirs)).toBe('PHASE_TYPE_COMPLETE');
      const left = (await Promise.all(mine.map((id) => phase(h, greedy, id)))).filter((p) => !done(p)).length;
      slow.on = false;
      await until(async () => (await Promise.all(mine.map((id) => phase(h, greedy, id)))).every(done), (x) => x, 30_000);
      return left;
    } finally {
      await h.destroy();
    }
  }

  it('one slot: the quiet account goes next, not after the whole greedy queue', async () => {
    // First come was greedy's first task; then it is quiet's turn, so at least three of greedy's still wait.
    expect(await greedyLeftWhenQuietDone(1)).toBeGreaterThanOrEqual(3);
  });

  it('several slots: one account never holds them all, so the quiet one starts at once', async () => {
    // Greedy may hold one of two slots; quiet's small download runs beside it and ends first.
    expect(await greedyLeftWhenQuietDone(2)).toBeGreaterThanOrEqual(3);
  });
});

describe('accounts taking turns at unpacking', { timeout: 90_000 }, () => {
  it('a long unpack gives its one slot to another account after its turn, then goes on from what it saved', async () => {
    const zip = requireTool('zip', 'apt-get install zip');
    const h = await startTestHaul({ archiveConcurrency: 1, archiveTurnSeconds: 1 });
    try {
      const greedy = await h.signUp();
      const quiet = await h.signUp();
      const files: Record<string, string> = {};
      for (let i = 0; i < 1200; i++) files[`f${i}.txt`] = `entry ${i}\n`;
      const big = await upload(h, greedy, 'big.zip', pack(tree(files), zip, ['-q', '-0', '-r', 'big.zip', '.'], 'big.zip'));
      const small = await upload(h, quiet, 'small.zip', pack(tree({ 'a.txt': 'a', 'b.txt': 'b' }), zip, ['-q', 'small.zip', 'a.txt', 'b.txt'], 'small.zip'));
      h.archives.start();
      const long = (await h.api('POST', '/decompress/v1/decompress', greedy.access_token, { file_id: big })).body.task.id as string;
      await until(async () => (await h.api('GET', `/decompress/v1/progress?task_id=${long}`, greedy.access_token)).body.task.progress, (p) => p > 0, 30_000);
      const short = (await h.api('POST', '/decompress/v1/decompress', quiet.access_token, { file_id: small })).body.task.id as string;
      expect((await settle(h, quiet.access_token, short)).task.phase).toBe('PHASE_TYPE_COMPLETE');
      // The greedy unpack was still under way: the quiet one did not wait for all of it.
      const meanwhile = (await h.api('GET', `/decompress/v1/progress?task_id=${long}`, greedy.access_token)).body.task.phase;
      expect(meanwhile).not.toBe('PHASE_TYPE_COMPLETE');
      // And it went on to the end from its saved entries, every one of them placed once.
      const ended = await settle(h, greedy.access_token, long, 60_000);
      expect(ended.task.phase).toBe('PHASE_TYPE_COMPLETE');
      const folder = await h.api('GET', `/drive/v1/files?parent_id=${ended.task.file_id}&limit=500`, greedy.access_token);
      let count = folder.body.files.length;
      for (let token = folder.body.next_page_token; token; ) {
        const page = await h.api('GET', `/drive/v1/files?parent_id=${ended.task.file_id}&limit=500&page_token=${encodeURIComponent(token)}`, greedy.access_token);
        count += page.body.files.length;
        token = page.body.next_page_token;
      }
      expect(count).toBe(1200);
    } finally {
      await h.destroy();
    }
  });
});

describe('accounts taking turns at transcodes', () => {
  it('claims the next job for the account served longest ago, never past its cap', async () => {
    const { claimInTurn } = await import('../src/tasks/claim-in-turn.js');
    const h = await startTestHaul();
    try {
      const job = (hash: string, user_id: string, created_time: number) => ({ hash, user_id, created_time, updated_time: created_time, phase: 'PHASE_TYPE_PENDING', progress: 0, message: '', lease_id: '', attempts: 0 });
      await h.ctx.db.insertInto('media_jobs').values([job('g1', 'greedy', 1), job('g2', 'greedy', 2), job('g3', 'greedy', 3), job('q1', 'quiet', 4)]).execute();
      let now = 100;
      const next = async () => (await claimInTurn(h.ctx.db, { table: 'media_jobs', key: 'hash', cap: 1, set: () => ({ lease_id: 'l' }) }, ++now))?.hash;
      expect(await next()).toBe('g1');
      // Greedy is at its cap: quiet's job goes next, though three of greedy's came first.
      expect(await next()).toBe('q1');
      expect(await next()).toBeUndefined();
      await h.ctx.db.updateTable('media_jobs').set({ phase: 'PHASE_TYPE_COMPLETE' }).where('phase', '=', 'PHASE_TYPE_RUNNING').execute();
      expect(await next()).toBe('g2');
    } finally {
      await h.destroy();
    }
  });
});
