/** Transcoding on upload with the ffmpeg builds shipped through npm, and with transcoding off. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveMedia } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { ff, ffprobe, need } from './media-tools.js';

describe('media: ffmpeg shipped through npm, transcoding on upload or never', () => {
  const dir = mkdtempSync(join(tmpdir(), 'haul-media-npm-'));
  const require = createRequire(import.meta.url);
  // The builds `npm start` falls back to on a machine without ffmpeg.
  const npmTools = {
    ffmpegPath: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobePath: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
  };
  let clip: Buffer;
  const hauls: TestHaul[] = [];

  beforeAll(() => {
    need('ffmpeg');
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=duration=3',
      '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none', '-c:a', 'libopus', '-shortest', 'clip.mkv']);
    clip = readFileSync(join(dir, 'clip.mkv'));
  });
  afterAll(async () => {
    for (const h of hauls) await h.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on-upload transcodes a placed video without anyone playing it, with the npm builds', async () => {
    const h = await startTestHaul({ transcode: 'on-upload', ...npmTools });
    hauls.push(h);
    const t = await h.signUp();
    const file = await h.putFile(t, '', 'holiday.mkv', clip);
    h.media.start();
    const m = await (async () => {
      const end = Date.now() + 30_000;
      for (;;) {
        const f = (await h.api('GET', `/drive/v1/files/${file.id}`, t.access_token)).body;
        const r = (f.medias as DriveMedia[]).find((x) => x.media_id === '360p');
        if (r?.phase === 'PHASE_TYPE_COMPLETE') return r;
        if (Date.now() > end) throw new Error(`no rendition: ${JSON.stringify(f.medias)}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    })();
    const url = (u: string) => u.replace('http://haul.test', '');
    const text = (await h.app.inject({ method: 'GET', url: url(m.link.url) })).body;
    const base = m.link.url.slice(0, m.link.url.indexOf('index.m3u8'));
    const uris = [/#EXT-X-MAP:URI="([^"]+)"/.exec(text)![1]!, ...text.split('\n').filter((l) => l && !l.startsWith('#'))];
    const parts = await Promise.all(uris.map(async (u) => (await h.app.inject({ method: 'GET', url: url(base + u) })).rawPayload));
    writeFileSync(join(dir, 'joined.mp4'), Buffer.concat(parts));
    const probe = ffprobe(join(dir, 'joined.mp4'));
    expect(probe.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    expect(probe.streams[0]).toMatchObject({ width: 640, height: 360 });
    expect(Number(probe.format.duration)).toBeCloseTo(3, 0);
    const thumb = await h.app.inject({ method: 'GET', url: url((await h.api('GET', `/drive/v1/files/${file.id}`, t.access_token)).body.thumbnail_link) });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(480);
  });

  it('off: playing starts no transcode', async () => {
    const h = await startTestHaul({ transcode: 'off' });
    hauls.push(h);
    const t = await h.signUp();
    const file = await h.putFile(t, '', 'holiday.mkv', clip);
    h.media.start();
    const f = (await h.api('GET', `/drive/v1/files/${file.id}?usage=PLAY`, t.access_token)).body;
    expect(f.medias.map((m: DriveMedia) => m.media_id)).toEqual(['origin']);
    expect(await h.ctx.db.selectFrom('media_jobs').selectAll().execute()).toEqual([]);
  });
});
