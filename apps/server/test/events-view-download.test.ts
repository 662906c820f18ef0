import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { mediaLink } from '../src/media/media-links.js';
import { ACCESS_EVENT_WINDOW_MS } from '../src/events/events.repository.js';

describe('view and download events', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let other: TokenResponse;
  const clock = new ManualClock();
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    t = await h.signUp();
    other = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** The file's signed download link, as GET files/{id} hands it out, as a path for inject. */
  const contentPath = async (token: TokenResponse, id: string) => {
    const res = await h.api('GET', `/drive/v1/files/${id}`, token.access_token);
    return new URL(res.body.web_content_link).pathname + new URL(res.body.web_content_link).search;
  };
  const events = async (token: TokenResponse, type: string) => {
    const filter = encodeURIComponent(JSON.stringify({ type: { eq: type } }));
    return (await h.api('GET', `/drive/v1/events?limit=500&filters=${filter}`, token.access_token)).body.events as any[];
  };
  const fetchBytes = (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => h.app.inject({ method, url: path, headers });

  it('records a download when the link is followed, and a view when a page shows the bytes', async () => {
    const doc = await h.putFile(t, '', 'paper.pdf', 'pdf bytes');
    const pic = await h.putFile(t, '', 'cat.png', 'png bytes');
    clock.advance(1000);
    // Followed (a click on the download button, curl, the command line): a download.
    expect((await fetchBytes(await contentPath(t, doc.id), { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).statusCode).toBe(200);
    expect((await fetchBytes(await contentPath(t, doc.id))).statusCode).toBe(200);
    // Shown in the page (an <img> of the viewer): a view, not a download.
    expect((await fetchBytes(await contentPath(t, pic.id), { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' })).statusCode).toBe(200);
    const downloads = await events(t, 'TYPE_DOWNLOAD');
    expect(downloads.map((e) => e.file_id)).toEqual([doc.id]);
    expect(downloads[0]).toMatchObject({ type: 'TYPE_DOWNLOAD', file_name: 'paper.pdf', reference_resource: { id: doc.id } });
    expect((await events(t, 'TYPE_VIEW')).map((e) => e.file_id)).toEqual([pic.id]);
    // Recent (every type) has them at the top.
    const recent = (await h.api('GET', '/drive/v1/events?limit=3', t.access_token)).body.events.map((e: any) => e.type);
    expect(recent.slice(0, 2).sort()).toEqual(['TYPE_DOWNLOAD', 'TYPE_VIEW']);
  });

  it('counts the many range requests of one playback once per window, and again after it', async () => {
    const clip = await h.putFile(t, '', 'clip.mp4', Buffer.alloc(4096, 7));
    const origin = new URL(mediaLink(h.ctx, { userId: t.sub, epoch: 0 }, clip.id, 'origin').url);
    const path = origin.pathname + origin.search;
    const first = await fetchBytes(path, { range: 'bytes=0-99', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'video' });
    expect(first.statusCode).toBe(206);
    const [e1] = (await events(t, 'TYPE_VIEW')).filter((e) => e.file_id === clip.id);
    expect(e1).toBeDefined();
    // Seeking: more ranges a minute later leave the event as it was.
    clock.advance(60_000);
    for (const r of ['bytes=1000-1999', 'bytes=3000-4095', 'bytes=100-199']) {
      expect((await fetchBytes(path, { range: r, 'sec-fetch-mode': 'no-cors' })).statusCode).toBe(206);
    }
    const [e2] = (await events(t, 'TYPE_VIEW')).filter((e) => e.file_id === clip.id);
    expect(e2.updated_time).toBe(e1.updated_time);
    // Opened again after the window: it moves to the top of Recent.
    clock.advance(ACCESS_EVENT_WINDOW_MS);
    expect((await fetchBytes(path, { range: 'bytes=0-99', 'sec-fetch-mode': 'no-cors' })).statusCode).toBe(206);
    const [e3] = (await events(t, 'TYPE_VIEW')).filter((e) => e.file_id === clip.id);
    expect(Date.parse(e3.updated_time)).toBe(clock.now());
    expect((await events(t, 'TYPE_VIEW')).filter((e) => e.file_id === clip.id)).toHaveLength(1);
  });

  it('records nothing for a HEAD, a bad link, or in another account', async () => {
    const f = await h.putFile(t, '', 'quiet.txt', 'shh');
    const path = await contentPath(t, f.id);
    expect((await fetchBytes(path, {}, 'HEAD')).statusCode).toBe(200);
    expect((await fetchBytes(path.replace(/s=[^&]+/, 's=forged'))).statusCode).toBe(404);
    const mine = [...(await events(t, 'TYPE_DOWNLOAD')), ...(await events(t, 'TYPE_VIEW'))];
    expect(mine.find((e) => e.file_id === f.id)).toBeUndefined();
    await fetchBytes(path);
    expect((await events(t, 'TYPE_DOWNLOAD')).find((e) => e.file_id === f.id)).toBeDefined();
    expect(await events(other, 'TYPE_DOWNLOAD')).toEqual([]);
  });
});
