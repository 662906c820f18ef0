/** Cloud downloads and the storage quota: downloads that each fit alone, run side by side, land only while they fit. */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

const SIZE = 400_000;
/** Different bytes per path (no two downloads share content), sent slowly so every download is under way at once. */
function slowOrigin(): Server {
  return createServer((req, res) => {
    const seed = createHash('sha256').update(req.url ?? '').digest();
    const body = Buffer.alloc(SIZE, seed);
    res.writeHead(200, { 'content-length': SIZE, 'content-type': 'application/octet-stream' });
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      const chunk = body.subarray(at, at + 50_000);
      at += chunk.length;
      if (at >= SIZE) {
        clearInterval(timer);
        res.end(chunk);
      } else res.write(chunk);
    }, 50);
  });
}

describe('cloud downloads and the quota', () => {
  const server = slowOrigin();
  let h: TestHaul;
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    // Every download at once, one account: the race this test is about (the per-account cap would hold one back).
    h = await startTestHaul({ allowPrivateNetwork: true, offlineConcurrency: 5, tasksPerAccount: 5, defaultQuotaBytes: 1_000_000 });
    h.offline.start();
  });
  afterAll(async () => {
    server.close();
    await h.destroy();
  });

  it('fails the downloads that no longer fit with file_space_not_enough, keeping the drive within its limit', async () => {
    const t = await h.signUp();
    const res = await h.api('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      url: { url: [1, 2, 3, 4, 5].map((i) => `${base}/part-${i}.bin`).join('\n') },
    });
    expect(res.status).toBe(200);
    const ids: string[] = res.body.tasks.map((x: { id: string }) => x.id);
    expect(ids.length).toBe(5);
    const end = Date.now() + 30_000;
    let tasks: any[] = [];
    for (;;) {
      tasks = await Promise.all(ids.map(async (id) => (await h.api('GET', `/drive/v1/tasks/${id}`, t.access_token)).body));
      if (tasks.every((x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR')) break;
      if (Date.now() > end) throw new Error(`tasks did not finish: ${tasks.map((x) => x.phase).join()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const complete = tasks.filter((x) => x.phase === 'PHASE_TYPE_COMPLETE');
    const failed = tasks.filter((x) => x.phase === 'PHASE_TYPE_ERROR');
    expect(complete.length).toBe(2);
    expect(failed.length).toBe(3);
    for (const f of failed) expect(f.params.error).toBe('file_space_not_enough');
    const about = (await h.api('GET', '/drive/v1/about', t.access_token)).body;
    expect(Number(about.quota.usage)).toBe(2 * SIZE);
    expect(Number(about.quota.usage)).toBeLessThanOrEqual(Number(about.quota.limit));
    // Nothing of the failed ones is left behind in the drive.
    const listed = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files;
    expect(listed.length).toBe(2);
  });
});
