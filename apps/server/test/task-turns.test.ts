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

/** Each path's own bytes; paths under /slow/ take about a second to send. */
function origin(): Server {
  return createServer((req, res) => {
    const body = Buffer.alloc(req.url!.startsWith('/slow/') ? 200_000 : 1024, createHash('sha256').update(req.url!).digest());
    res.writeHead(200, { 'content-length': body.length });
    if (!req.url!.startsWith('/slow/')) return void res.end(body);
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
  const server = origin();
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
    try {
      const greedy = await h.signUp();
      const quiet = await h.signUp();
      const mine = await add(h, greedy, ['/slow/1', '/slow/2', '/slow/3', '/slow/4']);
      const theirs = (await add(h, quiet, ['/small']))[0]!;
      h.offline.start();
      await until(() => phase(h, quiet, theirs), done, 30_000);
      expect(await phase(h, quiet, theirs)).toBe('PHASE_TYPE_COMPLETE');
      const left = (await Promise.all(mine.map((id) => phase(h, greedy, id)))).filter((p) => !done(p)).length;
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
