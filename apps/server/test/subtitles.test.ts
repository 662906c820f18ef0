/**
 * Subtitles end to end on a real server: text tracks inside MKV (SRT, ASS) and MP4 (mov_text) made by ffmpeg, sidecar
 * files beside a video, a file picked from elsewhere in the drive, each served as clean WebVTT through a signed link,
 * and another account refused everywhere.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { deleteFiles, purgeExpired } from '../src/files/trash.service.js';
import { dropOrphanedMedia } from '../src/media/media.repository.js';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';
import { ff, need } from './media-tools.js';

interface Track {
  id: string;
  source: string;
  kind: string;
  codec: string;
  language: string;
  title: string;
  name: string;
  file_id: string;
  link: { url: string; expire: string };
}

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello from <b>SRT</b>\n\n2\n00:00:03,000 --> 00:00:04,000\n<script>alert(1)</script>Second line\n';
const ASS = [
  '[Script Info]', 'ScriptType: v4.00+', '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
  'Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:02.00,0:00:03.50,Default,,0,0,0,,{\\an8\\pos(160,20)\\c&H00FF00&}Sign: {\\i1}EXIT{\\i0}, now',
  '',
].join('\n');

describe('subtitles', () => {
  let h: TestHaul;
  let a: TokenResponse;
  let b: TokenResponse;
  const clock = new ManualClock(Date.now());
  const dir = mkdtempSync(join(tmpdir(), 'haul-subtitles-'));
  const ids: Record<string, string> = {};
  const path = (url: string) => url.replace('http://haul.test', '');
  const listCall = async (id: string, token = a, query = '') => h.api('GET', `/drive/v1/files/${id}/subtitles${query}`, token.access_token);
  const tracks = async (id: string, query = '') => {
    const res = await listCall(id, a, query);
    expect(res.status).toBe(200);
    return (res.body as { tracks: Track[] }).tracks;
  };
  const vtt = async (url: string, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({ method: 'GET', url: path(url), headers });
    return res;
  };

  beforeAll(async () => {
    need('ffmpeg');
    writeFileSync(join(dir, 'a.srt'), SRT);
    writeFileSync(join(dir, 'b.ass'), ASS);
    const video = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=5:duration=5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
    ff(dir, [...video.slice(0, 4), '-i', 'a.srt', '-i', 'b.ass', '-map', '0:v', '-map', '1', '-map', '2', ...video.slice(4),
      '-c:s:0', 'srt', '-c:s:1', 'ass', '-metadata:s:s:0', 'language=eng', '-metadata:s:s:1', 'language=jpn', '-metadata:s:s:1', 'title=Signs', 'film.mkv']);
    ff(dir, [...video.slice(0, 4), '-i', 'a.srt', '-map', '0:v', '-map', '1', ...video.slice(4), '-c:s', 'mov_text', '-metadata:s:s:0', 'language=fre', 'clip.mp4']);

    h = await startTestHaul({ downloadLinkTtlSeconds: 3600 }, clock);
    a = await h.signUp();
    b = await h.signUp();
    const folder = await mkdir(h, a.access_token, 'Films');
    const elsewhere = await mkdir(h, a.access_token, 'Subs');
    ids.mkv = (await h.putFile(a, folder, 'Film.mkv', readFileSync(join(dir, 'film.mkv')))).id;
    ids.mp4 = (await h.putFile(a, '', 'clip.mp4', readFileSync(join(dir, 'clip.mp4')))).id;
    ids.srt = (await h.putFile(a, folder, 'Film.srt', SRT)).id;
    ids.ass = (await h.putFile(a, folder, 'film.en.ass', ASS)).id;
    // GB18030 bytes of "你好" (not UTF-8): read by the language its name gives.
    ids.zh = (await h.putFile(a, folder, 'Film.zh-CN.srt', Buffer.concat([Buffer.from('1\n00:00:00,500 --> 00:00:01,000\n'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), Buffer.from('\n')]))).id;
    await h.putFile(a, folder, 'Filmography.srt', SRT);
    await h.putFile(a, folder, 'Film.nfo', 'not a subtitle');
    ids.picked = (await h.putFile(a, elsewhere, 'Any name.vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000 line:0\nPicked <c.yellow>cue</c>\n')).id;
    ids.text = (await h.putFile(a, elsewhere, 'notes.txt', 'hello')).id;
    ids.bVideo = (await h.putFile(b, '', 'Mine.mkv', readFileSync(join(dir, 'film.mkv')))).id;
  }, 120_000);

  afterAll(async () => {
    await h?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the text tracks inside an MKV, then its sidecar files by language', async () => {
    const list = await tracks(ids.mkv!);
    expect(list.map((t) => [t.id, t.source, t.kind, t.codec, t.language, t.title])).toEqual([
      ['s1', 'embedded', 'text', 'subrip', 'eng', ''],
      ['s2', 'embedded', 'text', 'ass', 'jpn', 'Signs'],
      [`f${ids.srt}`, 'sidecar', 'text', 'srt', '', ''],
      [`f${ids.zh}`, 'sidecar', 'text', 'srt', 'zh-CN', ''],
      [`f${ids.ass}`, 'sidecar', 'text', 'ass', 'en', ''],
    ]);
    for (const t of list) expect(t.link.url).toMatch(new RegExp(`^http://haul.test/drive/v1/subtitles/${ids.mkv}/${t.id}\\?u=`));
  });

  it('converts an embedded SRT track to WebVTT with its cues at their times', async () => {
    const t = (await tracks(ids.mkv!)).find((x) => x.id === 's1')!;
    const res = await vtt(t.link.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello from <b>SRT</b>\n\n00:00:03.000 --> 00:00:04.000\nalert(1)Second line\n');
    // Kept once converted: the same bytes (and tag) the next time, and a 304 for the tag.
    const again = await vtt(t.link.url, { 'if-none-match': res.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it('strips ASS override tags from an embedded ASS track and from an .ass sidecar', async () => {
    const list = await tracks(ids.mkv!);
    const embedded = await vtt(list.find((x) => x.id === 's2')!.link.url);
    expect(embedded.statusCode).toBe(200);
    expect(embedded.body).toContain('00:00:02.000 --> 00:00:03.500\nSign: <i>EXIT</i>, now\n');
    expect(embedded.body).not.toMatch(/\\an8|\\pos|\{|\\c&/);
    const sidecar = await vtt(list.find((x) => x.id === `f${ids.ass}`)!.link.url);
    expect(sidecar.body).toBe('WEBVTT\n\n00:00:02.000 --> 00:00:03.500\nSign: <i>EXIT</i>, now\n');
  });

  it('serves an .srt sidecar as WebVTT, reading a legacy encoding by the language in its name', async () => {
    const list = await tracks(ids.mkv!);
    const srt = await vtt(list.find((x) => x.id === `f${ids.srt}`)!.link.url);
    expect(srt.body).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello from <b>SRT</b>\n\n00:00:03.000 --> 00:00:04.000\nalert(1)Second line\n');
    const zh = await vtt(list.find((x) => x.id === `f${ids.zh}`)!.link.url);
    expect(zh.body).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.000\n你好\n');
  });

  it('converts mov_text inside an MP4', async () => {
    const list = await tracks(ids.mp4!);
    expect(list.map((t) => [t.id, t.codec, t.language])).toEqual([['s1', 'mov_text', 'fre']]);
    const res = await vtt(list[0]!.link.url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('00:00:01.000 --> 00:00:02.500\nHello from <b>SRT</b>\n');
    expect(res.body).toContain('00:00:03.000 --> 00:00:04.000\n');
  });

  it('adds a subtitle file picked from anywhere in the drive, and refuses what is not one', async () => {
    const list = await tracks(ids.mkv!, `?file_id=${ids.picked}`);
    const picked = list.at(-1)!;
    expect(picked).toMatchObject({ id: `f${ids.picked}`, source: 'file', codec: 'vtt', name: 'Any name.vtt', file_id: ids.picked });
    const res = await vtt(picked.link.url);
    expect(res.body).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nPicked cue\n');
    const notSub = await listCall(ids.mkv!, a, `?file_id=${ids.text}`);
    expect(notSub.status).toBe(400);
    expect(notSub.body).toMatchObject({ error: 'invalid_argument' });
    expect(notSub.body.error_description).toMatch(/subtitle file/);
    const notVideo = await listCall(ids.srt!);
    expect(notVideo.status).toBe(404);
    expect(notVideo.body).toMatchObject({ error: 'file_not_found' });
  });

  it("refuses another account: its video, its files as file_id, and links that were not made for it", async () => {
    for (const res of [await listCall(ids.mkv!, b), await listCall(ids.bVideo!, b, `?file_id=${ids.srt}`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'file_not_found' });
    }
    const own = (await listCall(ids.bVideo!, b)).body as { tracks: Track[] };
    expect(own.tracks.map((t) => t.id)).toEqual(['s1', 's2']);
    const link = (await tracks(ids.mkv!)).find((x) => x.id === `f${ids.srt}`)!.link.url;
    // The signature covers the video and the track: pointing it at another track or video, or at another account, fails.
    for (const bad of [
      link.replace(`/f${ids.srt}?`, `/f${ids.zh}?`),
      link.replace(`/subtitles/${ids.mkv}/`, `/subtitles/${ids.bVideo}/`),
      link.replace(/u=[^&]+/, `u=${encodeURIComponent(b.sub)}`),
      link.replace(/s=[^&]+/, 's=AAAA'),
      link.replace(`/subtitles/${ids.mkv}/f${ids.srt}`, `/media/${ids.mkv}/origin`),
    ]) {
      const res = await vtt(bad);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'file_not_found' });
    }
  });

  it('drops the WebVTT of content deleted for good, releasing its blob', async () => {
    const { hash } = await h.ctx.db.selectFrom('files').select('hash').where('id', '=', ids.mp4!).executeTakeFirstOrThrow();
    const rows = await h.ctx.db.selectFrom('media_thumbnails').select(['size', 'thumb_hash']).where('hash', '=', hash).execute();
    expect(rows.map((r) => r.size)).toEqual(['subtitle:1']);
    const vttBlob = rows[0]!.thumb_hash;
    // The same cues as the MKV's SRT track make the same WebVTT bytes: one blob, referenced by both.
    const refs = async () => (await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', vttBlob).executeTakeFirst())?.ref_count ?? 0;
    expect(await refs()).toBe(2);
    await deleteFiles(h.ctx, a.sub, [ids.mp4!]);
    clock.advance(11 * 60_000);
    await purgeExpired(h.ctx);
    expect(await dropOrphanedMedia(h.ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await h.ctx.db.selectFrom('media_info').select('kind').where('hash', '=', hash).execute()).toEqual([]);
    clock.advance(11 * 60_000);
    await purgeExpired(h.ctx);
    expect(await h.ctx.db.selectFrom('media_thumbnails').select('size').where('hash', '=', hash).execute()).toEqual([]);
    expect(await refs()).toBe(1);
    expect(await h.ctx.blobs.has(vttBlob)).toBe(true);
  });
});
