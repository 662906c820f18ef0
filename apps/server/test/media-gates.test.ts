/**
 * What playback premium buys, held on the server: renditions above the free plan's resolution, and a share visitor's
 * preview whose playlist ends at the allowed point with the segments past it refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveMedia, TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { ff, need } from './media-tools.js';

describe('media gates: premium qualities and share previews', () => {
  let h: TestHaul;
  let owner: TokenResponse;
  let premium: TokenResponse;
  let free: TokenResponse;
  let fileId = '';
  let shareId = '';
  const dir = mkdtempSync(join(tmpdir(), 'haul-gates-'));
  const path = (url: string) => url.replace('http://haul.test', '');
  const entry = (medias: DriveMedia[], id: string) => medias.find((m) => m.media_id === id)!;
  const get = (url: string, token?: string) => h.api('GET', path(url), token);
  const segmentsOf = (playlist: string) => playlist.split('\n').filter((l) => /^\d+\.m4s\?/.test(l));
  const seconds = (playlist: string) => [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
  const shareInfo = async (token?: string) => {
    const res = await h.api('GET', `/drive/v1/share/file_info?share_id=${shareId}&file_id=${fileId}&usage=PLAY`, token);
    expect(res.status).toBe(200);
    return res.body.file_info as { params: Record<string, string>; medias: DriveMedia[]; web_content_link: string };
  };

  beforeAll(async () => {
    need('ffmpeg');
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=10:duration=14', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', 'tall.mp4']);
    h = await startTestHaul(
      { downloadLinkTtlSeconds: 3600, transcode: 'on-play', mediaConcurrency: 1, freeMaxResolution: 720, sharePreviewSeconds: 6, sharePreviewFraction: 0.1 },
    );
    owner = await h.signUp();
    premium = await h.signUp();
    free = await h.signUp();
    await h.ctx.db.updateTable('users').set({ premium_expire: Date.now() + 86_400_000 }).where('id', '=', premium.sub).execute();
    fileId = (await h.putFile(owner, '', 'tall.mp4', readFileSync(join(dir, 'tall.mp4')))).id;
    h.media.start();
    const made = await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [fileId], share_to: 'publiclink', expiration_days: -1 });
    shareId = made.body.share_id;
    // Play once and wait for every rendition to be complete.
    await h.api('GET', `/drive/v1/files/${fileId}?usage=PLAY`, owner.access_token);
    const end = Date.now() + 90_000;
    for (;;) {
      const f = await h.api('GET', `/drive/v1/files/${fileId}`, owner.access_token);
      const medias = f.body.medias as DriveMedia[];
      if (medias.length === 4 && medias.slice(1).every((m) => m.phase === 'PHASE_TYPE_COMPLETE')) break;
      if (Date.now() > end) throw new Error('timed out waiting for the renditions');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    await h?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists 1080p for a free account with need_more_quota and no link, and refuses its playlist and segments', async () => {
    const f = (await h.api('GET', `/drive/v1/files/${fileId}`, owner.access_token)).body as { medias: DriveMedia[] };
    expect(f.medias.map((m) => m.media_id)).toEqual(['origin', '480p', '720p', '1080p']);
    expect(entry(f.medias, '1080p')).toMatchObject({ need_more_quota: true, link: { url: '' }, is_visible: true });
    expect(entry(f.medias, '720p')).toMatchObject({ need_more_quota: false });
    // The original is the account's own bytes: never gated.
    expect(entry(f.medias, 'origin')).toMatchObject({ need_more_quota: false, is_visible: true });

    // A link of the free account pointed at 1080p: refused with the error object.
    const forged = entry(f.medias, '720p').link.url.replace('/720p/', '/1080p/');
    const playlist = await get(forged);
    expect(playlist.status).toBe(403);
    expect(playlist.body).toMatchObject({ error: 'permission_denied', error_code: 7 });
    expect((await get(forged.replace('index.m3u8', 'init.mp4'))).status).toBe(403);
    expect((await get(entry(f.medias, '720p').link.url)).status).toBe(200);
  });

  it('gives a premium account every quality', async () => {
    const mine = (await h.putFile(premium, '', 'tall.mp4', readFileSync(join(dir, 'tall.mp4')))).id;
    const f = (await h.api('GET', `/drive/v1/files/${mine}`, premium.access_token)).body as { medias: DriveMedia[] };
    const hd = entry(f.medias, '1080p');
    expect(hd).toMatchObject({ need_more_quota: false, is_visible: true });
    const playlist = await get(hd.link.url);
    expect(playlist.status).toBe(200);
    const first = segmentsOf(playlist.raw.toString())[0]!;
    const segment = await get(hd.link.url.replace(/index\.m3u8\?.*$/, first));
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp4');
  });

  it('gives an anonymous visitor a preview that ends at the allowed point, on the server', async () => {
    const info = await shareInfo();
    expect(info.params).toEqual({ anonymous_play_seconds: '6', anonymous_play_range: '0.1' });
    // No original to play: its bytes cannot be cut at a time.
    expect(entry(info.medias, 'origin')).toMatchObject({ is_visible: false, link: { url: '' } });
    expect(entry(info.medias, '1080p')).toMatchObject({ need_more_quota: true, link: { url: '' } });
    const sd = entry(info.medias, '720p');
    expect(sd.link.url).toMatch(new RegExp(`^http://haul.test/drive/v1/share/media/${fileId}/720p/index.m3u8\\?share_id=${shareId}&`));

    const res = await get(sd.link.url);
    expect(res.status).toBe(200);
    const text = res.raw.toString();
    expect(text).toContain('#EXT-X-ENDLIST');
    // Allowed: max(6 s, 10 % of 14 s) = 6 s; the last segment kept starts before it.
    const kept = segmentsOf(text);
    const total = seconds(text);
    expect(total).toBeGreaterThanOrEqual(6);
    expect(total).toBeLessThan(6 + 4.5);
    const base = sd.link.url.replace(/index\.m3u8\?.*$/, '');
    const query = sd.link.url.split('?')[1]!;
    for (const s of kept) expect((await get(`${base}${s}`)).status).toBe(200);
    expect((await get(`${base}init.mp4?${query}`)).status).toBe(200);

    // The whole playlist (through the owner) names the segments past the point: each is refused to the visitor.
    const whole = (await get(entry((await shareInfo(owner.access_token)).medias, '720p').link.url)).raw.toString();
    const past = segmentsOf(whole).map((l) => l.split('?')[0]!).slice(kept.length);
    expect(past.length).toBeGreaterThan(0);
    for (const s of past) {
      const refused = await get(`${base}${s}?${query}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'permission_denied' });
    }
    // The visitor cannot name themselves into a whole-video link: the signature covers who it was made for.
    expect((await get(`${base}${past[0]}?${query}&p=${premium.sub}`)).status).toBe(404);
    // And a 1080p link made from the 720p one is refused.
    expect((await get(sd.link.url.replace('/720p/', '/1080p/'))).status).toBe(403);
  });

  it('limits a signed-in free visitor as well', async () => {
    const info = await shareInfo(free.access_token);
    expect(info.params.anonymous_play_seconds).toBe('6');
    expect(seconds((await get(entry(info.medias, '720p').link.url)).raw.toString())).toBeLessThan(6 + 4.5);
  });

  it('gives the owner and a premium visitor the whole video', async () => {
    const mine = await shareInfo(owner.access_token);
    expect(mine.params).toEqual({});
    expect(entry(mine.medias, 'origin')).toMatchObject({ is_visible: true, link: { url: mine.web_content_link } });
    expect(entry(mine.medias, '1080p')).toMatchObject({ need_more_quota: true });
    expect(seconds((await get(entry(mine.medias, '720p').link.url)).raw.toString())).toBeCloseTo(14, 0);

    const theirs = await shareInfo(premium.access_token);
    expect(theirs.params).toEqual({});
    const hd = entry(theirs.medias, '1080p');
    expect(hd.need_more_quota).toBe(false);
    const text = (await get(hd.link.url)).raw.toString();
    expect(seconds(text)).toBeCloseTo(14, 0);
    const last = segmentsOf(text).at(-1)!;
    expect((await get(hd.link.url.replace(/index\.m3u8\?.*$/, last))).status).toBe(200);
  });

  it('ends every share media link with the share', async () => {
    const url = entry((await shareInfo()).medias, '720p').link.url;
    expect((await h.api('POST', '/drive/v1/share:batchDelete', owner.access_token, { ids: [shareId] })).status).toBe(200);
    const res = await get(url);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'file_not_found' });
  });
});
