/**
 * Burning an image subtitle track into the picture on a real server: an MKV with a dvd_subtitle track made by ffmpeg,
 * the burn-in asked for and waited for, a frame of the result compared with the same frame of the video, and another
 * account refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { ff, need } from './media-tools.js';
import { pgsSup } from './subtitle-burn-media.js';

interface Burn {
  track_id: string;
  state: string;
  message: string;
  link: { url: string; expire: string };
}

const BOX = { x: 120, y: 280, w: 400, h: 60 };

/** One frame at `at` seconds as 640×360 grey bytes. */
const grey = (path: string, at: number) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-ss', String(at), '-i', path, '-frames:v', '1', '-vf', 'scale=640:360', '-pix_fmt', 'gray', '-f', 'rawvideo', '-']);

/** Mean absolute difference of two grey frames over rows y0..y1 and columns x0..x1. */
function diff(a: Buffer, b: Buffer, x0: number, x1: number, y0: number, y1: number): number {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += Math.abs(a[y * 640 + x]! - b[y * 640 + x]!);
  return sum / ((x1 - x0) * (y1 - y0));
}

describe('subtitle burn-in', () => {
  let h: TestHaul;
  let a: TokenResponse;
  let b: TokenResponse;
  const dir = mkdtempSync(join(tmpdir(), 'haul-burn-'));
  const ids: Record<string, string> = {};
  const burnCall = (id: string, track: string, token = a) => h.api('POST', `/drive/v1/files/${id}/subtitles/${track}/burn`, token.access_token);

  beforeAll(async () => {
    need('ffmpeg');
    writeFileSync(join(dir, 'subs.sup'), pgsSup({ width: 640, height: 360, box: BOX, from: 1, to: 4 }));
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=5', '-i', 'subs.sup', '-map', '0', '-map', '1',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:s', 'dvdsub', '-metadata:s:s:0', 'language=eng', 'film.mkv']);
    h = await startTestHaul({ downloadLinkTtlSeconds: 3600 });
    a = await h.signUp();
    b = await h.signUp();
    ids.film = (await h.putFile(a, '', 'Film.mkv', readFileSync(join(dir, 'film.mkv')))).id;
  }, 120_000);

  afterAll(async () => {
    await h?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the dvd_subtitle track as an image track', async () => {
    const res = await h.api('GET', `/drive/v1/files/${ids.film}/subtitles`, a.access_token);
    expect(res.status).toBe(200);
    const tracks = (res.body as { tracks: { id: string; kind: string; codec: string }[] }).tracks;
    expect(tracks.map((t) => [t.id, t.kind, t.codec])).toEqual([['s1', 'image', 'dvd_subtitle']]);
  });

  it("refuses another account's video and what is not an image track", async () => {
    const other = await burnCall(ids.film!, 's1', b);
    expect(other.status).toBe(404);
    expect((other.body as { error: string }).error).toBe('file_not_found');
    for (const track of ['s0', 's9', 'x1', 'f1']) {
      const bad = await burnCall(ids.film!, track);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'invalid_argument' });
    }
  });

  it('burns the track into the picture and serves it through a signed link', async () => {
    let burn = (await burnCall(ids.film!, 's1')).body as Burn;
    expect(['running', 'ready']).toContain(burn.state);
    const until = Date.now() + 120_000;
    while (burn.state === 'running' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await burnCall(ids.film!, 's1');
      expect(res.status).toBe(200);
      burn = res.body as Burn;
    }
    expect(burn).toMatchObject({ track_id: 's1', state: 'ready', message: '' });
    expect(burn.link.url).toMatch(new RegExp(`^http://haul.test/drive/v1/subtitles/${ids.film}/s1/burned\\?u=`));

    const path = burn.link.url.replace('http://haul.test', '');
    const res = await h.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    writeFileSync(join(dir, 'burned.mp4'), res.rawPayload);
    const partial = await h.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=0-99' } });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.length).toBe(100);

    // At 2 s the box is on screen: the burned frame is white there and matches the video elsewhere.
    const burned = grey(join(dir, 'burned.mp4'), 2);
    const plain = grey(join(dir, 'film.mkv'), 2);
    expect(diff(burned, plain, BOX.x + 10, BOX.x + BOX.w - 10, BOX.y + 10, BOX.y + BOX.h - 10)).toBeGreaterThan(40);
    expect(diff(burned, plain, 0, 640, 0, 200)).toBeLessThan(8);
    const boxLuma = burned.subarray((BOX.y + 30) * 640 + BOX.x + 50, (BOX.y + 30) * 640 + BOX.x + 350);
    expect(Math.min(...boxLuma)).toBeGreaterThan(200);

    // The link holds for this video and track only, and not once tampered with.
    const wrong = [path.replace('/s1/burned', '/s2/burned'), path.replace('/burned?', '?'), path.replace(/s=[^&]+/, 's=AAAA')];
    for (const url of wrong) expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    // Another account's video never answers, even once made.
    expect((await burnCall(ids.film!, 's1', b)).status).toBe(404);
  }, 180_000);
});
