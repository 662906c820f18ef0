/**
 * Cloud downloads that cannot land are refused, or fail, naming the limit with its numbers; failures carry a reason
 * code and keep the engine's own words apart; a torrent waiting for peers says so and by which rule it gives up.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createNetServer } from 'node:net';
import { startTestHaul, type TestHaul } from './helper.js';

/** A port nothing listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createNetServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'haul-offline-limits-'));
/** A .torrent of one file of `size` bytes (mktorrent reads the file; its bytes do not matter here). */
function torrentOf(name: string, size: number): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, `${name}.bin`), Buffer.alloc(size, 7));
  const out = join(work, `${name}.torrent`);
  const made = spawnSync('mktorrent', ['-a', 'http://127.0.0.1:9/announce', '-l', '16', '-o', out, join(dir, `${name}.bin`)]);
  if (made.status !== 0) throw new Error(`mktorrent: ${made.stderr}`);
  return readFileSync(out).toString('base64');
}

/** An origin that says its size (2 MB) at once and then sends nothing more. */
const origin: Server = createServer((_req, res) => {
  res.writeHead(200, { 'content-length': 2_000_000, 'content-type': 'application/octet-stream' });
  res.flushHeaders();
});

let h: TestHaul;
let base: string;
beforeAll(async () => {
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  h = await startTestHaul({ allowPrivateNetwork: true, defaultQuotaBytes: 1_000_000, offlineMaxTaskBytes: 600_000, stallTimeoutSeconds: 30, offlineMinRate: 2048 });
  h.offline.start();
});
afterAll(async () => {
  origin.close();
  await h.destroy();
  rmSync(work, { recursive: true, force: true });
});

const add = (token: string, body: Record<string, unknown>) =>
  h.api('POST', '/drive/v1/files', token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', parent_id: '', ...body });

async function settled(token: string, id: string, until: (t: any) => boolean = (t) => t.phase === 'PHASE_TYPE_ERROR' || t.phase === 'PHASE_TYPE_COMPLETE') {
  const end = Date.now() + 20_000;
  for (;;) {
    const t = (await h.api('GET', `/drive/v1/tasks/${id}`, token)).body as any;
    if (until(t)) return t;
    if (Date.now() > end) throw new Error(`task stayed ${t.phase}: ${JSON.stringify(t.params)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a cloud download whose size is known at once', { timeout: 30_000 }, () => {
  it('refuses a .torrent larger than the free space, with the numbers, and creates no task', async () => {
    const t = await h.signUp();
    // More than the plan's cap too: the smaller of the two limits is the one named.
    await h.ctx.db.updateTable('users').set({ storage_limit: 400_000 }).where('id', '=', t.sub).execute();
    const res = await add(t.access_token, { url: { url: '' }, torrent: torrentOf('big', 500_000) });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('file_space_not_enough');
    const d = JSON.parse(res.body.error_description);
    expect(d).toMatchObject({ kind: 'storage', limit: '400000', usage: '0', needed: '500000' });
    expect(d.title).toBe('This download is 488.3 KB, larger than the space left in your drive: 390.6 KB of 390.6 KB is free.');
    expect((await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token)).body.tasks).toEqual([]);
  });

  it("refuses a .torrent larger than the plan's cap on one download, naming that cap", async () => {
    const t = await h.signUp();
    const res = await add(t.access_token, { url: { url: '' }, torrent: torrentOf('capped', 700_000) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('file_size_too_large');
    expect(JSON.parse(res.body.error_description)).toMatchObject({ kind: 'task_size', limit: '600000', needed: '700000' });
  });

  it('fails a link whose origin tells a size beyond the free space as a limit, with the numbers for the dialog', async () => {
    const t = await h.signUp();
    // Premium lifts the cap on one download, so free space is the limit left.
    await h.ctx.db.updateTable('users').set({ storage_limit: 1_500_000, premium_expire: Date.now() + 86_400_000 }).where('id', '=', t.sub).execute();
    const res = await add(t.access_token, { url: { url: `${base}/big.iso` } });
    expect(res.status).toBe(200);
    // A refused connection is tried again; the first report already names the reason.
    const task = await settled(t.access_token, res.body.task.id, (x) => !!x.params.reason);
    expect(task.params).toMatchObject({ error: 'file_space_not_enough', reason: 'space' });
    expect(JSON.parse(task.params.limit)).toMatchObject({ kind: 'storage', limit: '1500000', needed: '2000000' });
    expect(task.message).toBe('This download is 1.9 MB, larger than the space left in your drive: 1.4 MB of 1.4 MB is free.');
  });
});

describe('why a cloud download failed', { timeout: 30_000 }, () => {
  it('keeps the engine\'s words in params.detail and gives a reason code and plain words', async () => {
    const t = await h.signUp();
    const port = await freePort();
    const res = await add(t.access_token, { url: { url: `http://127.0.0.1:${port}/nothing-listens.bin` } });
    // A refused connection is tried again; the first report already names the reason.
    const task = await settled(t.access_token, res.body.task.id, (x) => !!x.params.reason);
    expect(task.params.reason).toBe('refused');
    expect(task.params.detail).toMatch(/ECONNREFUSED/);
    expect(task.message).toBe('The server of the link refused the connection.');
    expect(task.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    await h.api('DELETE', `/drive/v1/tasks?task_ids=${task.id}`, t.access_token);
  });

  it('shows a magnet with no peers as looking for peers, since when, and by which rule it gives up', async () => {
    const t = await h.signUp();
    const before = Date.now();
    const res = await add(t.access_token, { url: { url: 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=lonely' } });
    const task = await settled(t.access_token, res.body.task.id, (x) => x.params.stage === 'peers');
    expect(task.phase).toBe('PHASE_TYPE_RUNNING');
    expect(Number(task.params.peers_since)).toBeGreaterThanOrEqual(before - 1000);
    expect(task.params).toMatchObject({ stall_seconds: '30', min_rate: '2048', attempt: '1', attempts: '5' });
    await h.api('DELETE', `/drive/v1/tasks?task_ids=${task.id}`, t.access_token);
  });
});
