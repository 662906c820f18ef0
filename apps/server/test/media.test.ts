import { execFileSync } from 'node:child_process';
import { constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveMedia, TokenResponse } from '@haul/shared';
import { deleteFiles, purgeExpired } from '../src/files/trash.service.js';
import { dropOrphanedMedia } from '../src/media/media.repository.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { ff, ffprobe, need } from './media-tools.js';

describe('media: probing, thumbnails, HLS transcoding', () => {
  let h: TestHaul;
  let a: TokenResponse;
  let b: TokenResponse;
  const clock = new ManualClock(Date.now());
  const dir = mkdtempSync(join(tmpdir(), 'haul-media-'));
  const media: Record<string, Buffer> = {};
  const ids: Record<string, string> = {};
  let origin: Server;
  let originHits = 0;
  // A named pipe with a media name: whoever opens it for reading is seen at once (the test holds the writing end).
  const fifo = join(dir, 'trap.mp4');
  let fifoOpened = false;
  let fifoWriter: Promise<void> | null = null;
  const path = (url: string) => url.replace('http://haul.test', '');
  const getFile = async (id: string, query = '', token = a) => {
    const res = await h.api('GET', `/drive/v1/files/${id}${query}`, token.access_token);
    expect(res.status).toBe(200);
    return res.body as { params: Record<string, string>; medias: DriveMedia[]; thumbnail_link: string };
  };
  const rendition = (medias: DriveMedia[], id: string) => medias.find((m) => m.media_id === id)!;
  const waitFor = async <T>(what: string, fn: () => Promise<T | undefined>, ms = 40_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const decode = async (url: string) => {
    const res = await h.app.inject({ method: 'GET', url: path(url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    return sharp(res.rawPayload).metadata();
  };

  beforeAll(async () => {
    need('ffmpeg');
    need('ffprobe');
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=4', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', 'clip.mp4']);
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc2=size=540x960:rate=25:duration=24', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', 'portrait.mp4']);
    ff(dir, ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=duration=2',
      '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none', '-c:a', 'libopus', '-shortest', 'clip.mkv']);
    await sharp({ create: { width: 600, height: 600, channels: 3, background: '#c04010' } }).png().toFile(join(dir, 'cover.png'));
    ff(dir, ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=3', '-i', 'cover.png', '-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-b:a', '96k',
      '-c:v', 'png', '-disposition:v', 'attached_pic', '-id3v2_version', '3',
      '-metadata', 'title=Night Drive', '-metadata', 'artist=The Testers', '-metadata', 'album=Loopback', 'song.mp3']);
    ff(dir, ['-f', 'lavfi', '-i', 'sine=frequency=550:duration=2', '-c:a', 'flac', 'tone.flac']);
    // Stored 1600×1200, shown turned a quarter (EXIF orientation 6): a portrait photo.
    media['photo.jpg'] = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#204080' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    media['drawing.png'] = await sharp({ create: { width: 2000, height: 1000, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.5 } } }).png().toBuffer();
    for (const f of ['clip.mp4', 'portrait.mp4', 'clip.mkv', 'song.mp3', 'tone.flac']) media[f] = readFileSync(join(dir, f));
    media['broken.mp4'] = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256));
    media['broken.jpg'] = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), media['broken.mp4']!]);

    origin = createServer((_req, res) => {
      originHits++;
      res.end('nothing here');
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const port = (origin.address() as AddressInfo).port;
    // Files that name other files and URLs: a player or ffmpeg that follows them would read what is not the user's.
    execFileSync('mkfifo', [fifo]);
    fifoWriter = open(fifo, 'w').then((fh) => {
      fifoOpened = true;
      return fh.close();
    });
    const local = join(dir, 'clip.mp4');
    media['evil.mp4'] = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXTINF:4,\n${local}\n#EXTINF:4,\nfile://${fifo}\n#EXTINF:10,\nhttp://127.0.0.1:${port}/x.ts\n#EXT-X-ENDLIST\n`,
    );
    media['evil.mkv'] = Buffer.from(`ffconcat version 1.0\nfile '${local}'\nfile '${fifo}'\nfile '/etc/passwd'\nfile 'http://127.0.0.1:${port}/a.mp4'\n`);
    // A DASH manifest: ffmpeg detects these by content, whatever the file is called.
    media['evil.webm'] = Buffer.from(`<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT4S" minBufferTime="PT1S">
  <Period>
    <AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="640" height="360" codecs="avc1.64001f"><BaseURL>file://${fifo}</BaseURL></Representation></AdaptationSet>
    <AdaptationSet mimeType="audio/mp4"><Representation id="2" bandwidth="64000" codecs="mp4a.40.2"><BaseURL>http://127.0.0.1:${port}/a.mp4</BaseURL></Representation></AdaptationSet>
  </Period>
</MPD>
`);

    h = await startTestHaul({ downloadLinkTtlSeconds: 3600, transcode: 'on-play', mediaConcurrency: 1 }, clock);
    a = await h.signUp();
    b = await h.signUp();
    for (const [name, bytes] of Object.entries(media)) ids[name] = (await h.putFile(a, '', name, bytes)).id;
    h.media.start();
  }, 60_000);

  afterAll(async () => {
    await h?.destroy();
    origin?.close();
    // Opening the reading end releases the test's own writer.
    if (fifoWriter) {
      const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      await fifoWriter;
      await reader.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('probes video, audio and images into params and medias', async () => {
    const mp4 = await getFile(ids['clip.mp4']!);
    expect(Number(mp4.params.duration)).toBeCloseTo(4, 0);
    expect(mp4.params).toMatchObject({ width: '1280', height: '720' });
    expect(mp4.medias).toHaveLength(1);
    expect(mp4.medias[0]).toMatchObject({
      media_id: 'origin', is_origin: true, is_visible: true, need_more_quota: false, resolution_name: '720p', phase: 'PHASE_TYPE_COMPLETE',
      video: { video_codec: 'h264', audio_codec: 'aac', width: 1280, height: 720 },
    });
    expect(mp4.medias[0]!.video!.duration).toBeCloseTo(4, 0);
    expect(mp4.medias[0]!.link.url).toMatch(new RegExp(`^http://haul.test/drive/v1/media/${ids['clip.mp4']}/origin\\?u=`));
    expect(Date.parse(mp4.medias[0]!.link.expire)).toBeGreaterThan(clock.now());

    const mkv = await getFile(ids['clip.mkv']!);
    expect(mkv.medias[0]).toMatchObject({ is_origin: true, is_visible: false, video: { video_codec: 'hevc', audio_codec: 'opus', width: 640, height: 360 } });

    const mp3 = await getFile(ids['song.mp3']!);
    expect(mp3.medias).toHaveLength(1);
    expect(mp3.medias[0]).toMatchObject({ is_origin: true, is_visible: true, video: null, audio: { title: 'Night Drive', artist: 'The Testers', album: 'Loopback' } });
    expect(mp3.medias[0]!.audio!.codec).toMatch(/layer 3/i);
    expect(Number(mp3.params.duration)).toBeCloseTo(3, 0);
    const flac = await getFile(ids['tone.flac']!);
    expect(flac.medias[0]).toMatchObject({ is_visible: true, audio: { codec: 'FLAC' } });

    const jpg = await getFile(ids['photo.jpg']!);
    expect(jpg.params).toMatchObject({ width: '1200', height: '1600' });
    expect(jpg.medias).toEqual([]);
  });

  it('serves the original inline with its video type and byte ranges', async () => {
    const link = (await getFile(ids['clip.mp4']!)).medias[0]!.link.url;
    const res = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=0-1023' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-disposition']).toMatch(/^inline/);
    expect(res.headers['content-range']).toBe(`bytes 0-1023/${media['clip.mp4']!.length}`);
    expect(Buffer.compare(res.rawPayload, media['clip.mp4']!.subarray(0, 1024))).toBe(0);
  });

  it('makes thumbnails in three sizes: EXIF-turned photos, video frames, cover art', async () => {
    const sized = async (name: string, size: string) => {
      const link = (await getFile(ids[name]!, `?thumbnail_size=${size}`)).thumbnail_link;
      expect(link).toContain(`size=${size}`);
      return decode(link);
    };
    for (const [size, long] of [['SIZE_SMALL', 160], ['SIZE_MEDIUM', 480], ['SIZE_LARGE', 1280]] as const) {
      const photo = await sized('photo.jpg', size);
      expect([photo.width, photo.height]).toEqual([Math.round((long * 3) / 4), long]);
      const png = await sized('drawing.png', size);
      expect([png.width, png.height]).toEqual([long, long / 2]);
      const frame = await sized('clip.mp4', size);
      expect([frame.width, frame.height]).toEqual([long, Math.round((long * 9) / 16)]);
      const cover = await sized('song.mp3', size);
      expect([cover.width, cover.height]).toEqual([Math.min(600, long), Math.min(600, long)]);
    }
    // A song without cover art gets no link (its probe says so), so nothing asks for a picture that is not there.
    expect((await getFile(ids['tone.flac']!)).thumbnail_link).toBe('');
    const recent = (await h.api('GET', '/drive/v1/events?limit=100', a.access_token)).body.events as { file_name: string; reference_resource: { thumbnail_link: string } | null }[];
    const thumbOf = (name: string) => recent.find((e) => e.reference_resource && e.file_name === name)?.reference_resource?.thumbnail_link;
    expect(thumbOf('tone.flac')).toBe('');
    expect(thumbOf('song.mp3')).toContain('size=');
    // Content that is not readable media: the link answers a 404 error object.
    for (const name of ['broken.mp4', 'broken.jpg']) {
      const res = await h.api('GET', path((await getFile(ids[name]!)).thumbnail_link));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'file_not_found', error_code: 5 });
    }
  });

  it('lists thumbnail links for images and videos, medium unless asked', async () => {
    const list = async (q = '') => (await h.api('GET', `/drive/v1/files?parent_id=${q}`, a.access_token)).body.files as { name: string; thumbnail_link: string }[];
    const byName = Object.fromEntries((await list()).map((f) => [f.name, f.thumbnail_link]));
    for (const n of ['photo.jpg', 'drawing.png', 'clip.mp4', 'clip.mkv']) expect(byName[n]).toContain('size=SIZE_MEDIUM');
    expect(byName['song.mp3']).toBe('');
    const small = Object.fromEntries((await list('&thumbnail_size=SIZE_SMALL')).map((f) => [f.name, f.thumbnail_link]));
    expect(small['photo.jpg']).toContain('size=SIZE_SMALL');
    expect((await decode(small['photo.jpg']!)).height).toBe(160);
  });

  it('transcodes on play into HLS renditions whose playlists and segments play as H.264 + AAC', async () => {
    const first = await getFile(ids['clip.mp4']!, '?usage=PLAY');
    expect(first.medias.map((m) => m.media_id)).toEqual(['origin', '480p', '720p']);
    expect(rendition(first.medias, '720p')).toMatchObject({ is_origin: false, resolution_name: '720p', video: { video_codec: 'h264', audio_codec: 'aac', width: 1280, height: 720 } });
    expect(['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING']).toContain(rendition(first.medias, '720p').phase);

    const done = await waitFor('the renditions', async () => {
      const f = await getFile(ids['clip.mp4']!);
      return f.medias.slice(1).every((m) => m.phase === 'PHASE_TYPE_COMPLETE') ? f : undefined;
    });
    for (const [id, width, height] of [['480p', 854, 480], ['720p', 1280, 720]] as const) {
      const m = rendition(done.medias, id);
      expect(m).toMatchObject({ is_visible: true, progress: 100 });
      expect(m.link.url).toMatch(new RegExp(`/drive/v1/media/${ids['clip.mp4']}/${id}/index\\.m3u8\\?u=`));
      const playlist = await h.app.inject({ method: 'GET', url: path(m.link.url) });
      expect(playlist.statusCode).toBe(200);
      expect(playlist.headers['content-type']).toContain('mpegurl');
      const text = playlist.body;
      expect(text).toContain('#EXT-X-ENDLIST');
      const query = new URL(m.link.url).search;
      const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)![1]!;
      const segments = text.split('\n').filter((l) => l && !l.startsWith('#'));
      expect(segments.length).toBeGreaterThanOrEqual(1);
      for (const uri of [init, ...segments]) expect(uri.endsWith(query)).toBe(true);
      const base = m.link.url.slice(0, m.link.url.indexOf('index.m3u8'));
      const parts: Buffer[] = [];
      for (const uri of [init, ...segments]) {
        const res = await h.app.inject({ method: 'GET', url: path(base + uri) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('video/mp4');
        parts.push(res.rawPayload);
      }
      const joined = join(dir, `joined-${id}.mp4`);
      writeFileSync(joined, Buffer.concat(parts));
      const probe = ffprobe(joined);
      expect(probe.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
      expect(probe.streams[0]).toMatchObject({ width, height });
      expect(Number(probe.format.duration)).toBeGreaterThan(3.5);
      expect(Number(probe.format.duration)).toBeLessThan(4.6);
    }
  });

  it('reuses the renditions of the same content for another file and another user (no second job)', async () => {
    const copy = await h.putFile(b, '', 'same bytes.mp4', media['clip.mp4']!);
    const f = await getFile(copy.id, '?usage=PLAY', b);
    expect(f.medias.slice(1).map((m) => [m.media_id, m.phase])).toEqual([['480p', 'PHASE_TYPE_COMPLETE'], ['720p', 'PHASE_TYPE_COMPLETE']]);
    const jobs = await h.ctx.db.selectFrom('media_jobs').select(['hash', 'phase']).execute();
    expect(jobs.filter((j) => j.phase === 'PHASE_TYPE_COMPLETE')).toHaveLength(1);
    const res = await h.app.inject({ method: 'GET', url: path(rendition(f.medias, '480p').link.url) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('#EXT-X-ENDLIST');
  });

  it('plays a rendition while it is written; a stopped one leaves nothing half done and resumes', async () => {
    const id = ids['portrait.mp4']!;
    expect((await getFile(id, '?usage=PLAY')).medias.map((m) => m.media_id)).toEqual(['origin', '480p']);
    const growing = await waitFor('a first segment', async () => {
      const m = rendition((await getFile(id)).medias, '480p');
      return m.phase === 'PHASE_TYPE_RUNNING' && m.is_visible ? m : undefined;
    }, 20_000);
    // An EVENT playlist that names what is written so far and has no end yet.
    const live = await h.app.inject({ method: 'GET', url: path(growing.link.url) });
    expect(live.statusCode).toBe(200);
    expect(live.headers['cache-control']).toBe('no-cache');
    expect(live.body).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(live.body).not.toContain('#EXT-X-ENDLIST');
    const first = live.body.split('\n').find((l) => l.startsWith('00000.m4s?'))!;
    const base = growing.link.url.slice(0, growing.link.url.indexOf('index.m3u8'));
    for (const uri of [/#EXT-X-MAP:URI="([^"]+)"/.exec(live.body)![1]!, first]) {
      const part = await h.app.inject({ method: 'GET', url: path(base + uri) });
      expect(part.statusCode).toBe(200);
      expect(part.rawPayload.length).toBeGreaterThan(100);
    }
    await h.media.stop();
    const stopped = await getFile(id);
    expect(rendition(stopped.medias, '480p')).toMatchObject({ phase: 'PHASE_TYPE_PENDING', is_visible: false });
    expect((await h.api('GET', path(rendition(stopped.medias, '480p').link.url))).status).toBe(404);
    const scratch = join(h.dataDir, 'media', 'scratch');
    expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([]);
    h.media.start();
    const done = await waitFor('the resumed rendition', async () => {
      const f = await getFile(id);
      return rendition(f.medias, '480p').phase === 'PHASE_TYPE_COMPLETE' ? f : undefined;
    });
    // A portrait video keeps its shape: 480 on the shorter side.
    expect(rendition(done.medias, '480p').video).toMatchObject({ width: 480, height: 854 });
  });

  it('ends a corrupt file in ERROR with a message, and keeps serving', async () => {
    const f = await getFile(ids['broken.mp4']!, '?usage=PLAY');
    expect(f.medias).toHaveLength(1);
    expect(f.medias[0]).toMatchObject({ is_origin: true, is_visible: false, video: null, phase: 'PHASE_TYPE_ERROR' });
    expect(f.medias[0]!.message).toMatch(/\w/);
    expect(f.medias[0]!.message).not.toContain(h.dataDir);
    const job = await waitFor('the failed job', async () => {
      const j = await h.ctx.db.selectFrom('media_jobs').selectAll().where('phase', '=', 'PHASE_TYPE_ERROR').executeTakeFirst();
      return j ?? undefined;
    });
    expect(job.message).toMatch(/\w/);
    expect((await getFile(ids['clip.mp4']!)).medias[0]!.is_visible).toBe(true);
  });

  it('never follows playlists, concat lists or manifests disguised as videos', async () => {
    for (const name of ['evil.mp4', 'evil.mkv', 'evil.webm']) {
      const f = await getFile(ids[name]!, '?usage=PLAY');
      expect(f.medias).toHaveLength(1);
      expect(f.medias[0]).toMatchObject({ phase: 'PHASE_TYPE_ERROR', is_visible: false });
      const thumb = await h.api('GET', path(f.thumbnail_link));
      expect(thumb.status).toBe(404);
    }
    await new Promise((r) => setTimeout(r, 500));
    // They name clip.mp4, which would transcode fine if it were followed: nothing may come of it.
    const evil = await h.ctx.db.selectFrom('files').select('hash').where('id', 'in', [ids['evil.mp4']!, ids['evil.mkv']!, ids['evil.webm']!]).execute();
    const hashes = evil.map((f) => f.hash);
    expect(await h.ctx.db.selectFrom('media_renditions').select('name').where('hash', 'in', hashes).execute()).toEqual([]);
    const jobs = await h.ctx.db.selectFrom('media_jobs').select('phase').where('hash', 'in', hashes).execute();
    expect(jobs.map((j) => j.phase)).toEqual(['PHASE_TYPE_ERROR', 'PHASE_TYPE_ERROR', 'PHASE_TYPE_ERROR']);
    expect(originHits).toBe(0);
    expect(fifoOpened).toBe(false);
  });

  it('refuses links of another user, tampered, expired or of a trashed file with a 404 error object', async () => {
    const f = await getFile(ids['clip.mp4']!);
    const links = [f.thumbnail_link, f.medias[0]!.link.url, rendition(f.medias, '720p').link.url];
    const expect404 = async (url: string) => {
      const res = await h.api('GET', path(url));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'file_not_found', error_code: 5 });
    };
    for (const link of links) {
      expect((await h.app.inject({ method: 'GET', url: path(link) })).statusCode).toBe(200);
      await expect404(link.replace(/u=[^&]+/, `u=${b.sub}`));
      await expect404(link.replace(/s=([^&]{4})/, 's=AAAA'));
      // A segment's URI with the signature of another file.
      await expect404(link.replace(ids['clip.mp4']!, ids['clip.mkv']!));
    }
    const segment = (await h.app.inject({ method: 'GET', url: path(links[2]!) })).body.split('\n').find((l) => l.endsWith('.m4s' + new URL(links[2]!).search))!;
    const segmentUrl = links[2]!.slice(0, links[2]!.indexOf('index.m3u8')) + segment;
    expect((await h.app.inject({ method: 'GET', url: path(segmentUrl) })).statusCode).toBe(200);
    // A valid signature opens only the rendition's own files.
    await expect404(segmentUrl.replace(/\d{5}\.m4s/, '99999.m4s'));
    await expect404(segmentUrl.replace(/\d{5}\.m4s/, '..%2F..%2Fhaul.db'));
    await expect404(segmentUrl.replace('/720p/', '/2160p/'));

    // Trashing kills every link handed out for the file.
    const copy = await h.putFile(a, '', 'to trash.mp4', media['clip.mp4']!);
    const c = await getFile(copy.id);
    const copyLinks = [c.thumbnail_link, c.medias[0]!.link.url, rendition(c.medias, '480p').link.url];
    expect((await h.app.inject({ method: 'GET', url: path(copyLinks[2]!) })).statusCode).toBe(200);
    expect((await h.api('POST', '/drive/v1/files:batchTrash', a.access_token, { ids: [copy.id] })).status).toBe(200);
    for (const link of copyLinks) await expect404(link);

    // Media links last the download-link lifetime; thumbnail links a day (the web app keeps them in its local copy).
    clock.advance(3 * 3600 * 1000);
    for (const link of [links[1]!, links[2]!, segmentUrl]) await expect404(link);
    expect((await h.app.inject({ method: 'GET', url: path(links[0]!) })).statusCode).toBe(200);
    clock.advance(22 * 3600 * 1000);
    await expect404(links[0]!);
  });

  it('drops the media of content deleted for good, and the blobs it made with it', async () => {
    const id = ids['portrait.mp4']!;
    const { hash } = await h.ctx.db.selectFrom('files').select('hash').where('id', '=', id).executeTakeFirstOrThrow();
    const rows = await h.ctx.db.selectFrom('media_renditions').select('segments').where('hash', '=', hash).execute();
    const made = rows.flatMap((r) => Object.values(JSON.parse(r.segments) as Record<string, { hash: string }>).map((s) => s.hash));
    expect(made.length).toBeGreaterThan(1);
    // Access tokens have expired with the clock moved on: delete through the service.
    await deleteFiles(h.ctx, a.sub, [id]);
    clock.advance(11 * 60_000);
    await purgeExpired(h.ctx);
    expect(await dropOrphanedMedia(h.ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    for (const table of ['media_info', 'media_jobs', 'media_renditions'] as const) {
      expect(await h.ctx.db.selectFrom(table).select('hash').where('hash', '=', hash).execute()).toEqual([]);
    }
    clock.advance(11 * 60_000);
    await purgeExpired(h.ctx);
    for (const blob of made) expect(await h.ctx.blobs.has(blob)).toBe(false);
    // Media of content still stored is kept.
    const kept = await h.ctx.db.selectFrom('media_renditions').select('phase').where('hash', '!=', hash).execute();
    expect(kept.map((r) => r.phase)).toEqual(['PHASE_TYPE_COMPLETE', 'PHASE_TYPE_COMPLETE']);
  });
});
