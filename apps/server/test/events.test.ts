import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

describe('events', () => {
  let h: TestHaul;
  let t: TokenResponse;
  const clock = new ManualClock();
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  it('records create, upload, delete and restore by itself, newest first, with the file', async () => {
    const folder = await mkdir(h, t.access_token, 'Evented');
    clock.advance(1000);
    const file = await h.putFile(t, folder, 'song.mp3', 'la la');
    clock.advance(1000);
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [file.id] });
    clock.advance(1000);
    await h.api('POST', '/drive/v1/files:batchUntrash', t.access_token, { ids: [file.id] });
    const res = await h.api('GET', '/drive/v1/events?limit=10', t.access_token);
    expect(res.body.events.map((e: any) => e.type)).toEqual(['TYPE_RESTORE', 'TYPE_DELETE', 'TYPE_UPLOAD', 'TYPE_CREATE']);
    expect(res.body.events[0]).toMatchObject({ kind: 'drive#event', file_id: file.id, file_name: 'song.mp3', mime_type: 'audio/mpeg' });
    expect(res.body.events[0].reference_resource).toMatchObject({ id: file.id, name: 'song.mp3', trashed: false });
  });

  it('keeps one play event per file with its latest params, and pages through history', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await h.putFile(t, '', `clip${i}.mp4`, `v${i}`)).id);
    }
    for (const id of ids) {
      clock.advance(1000);
      const r = await h.api('POST', '/drive/v1/events', t.access_token, { event: { type: 'TYPE_PLAY', file_id: id, params: { play_seconds: '10' } } });
      expect(r.status).toBe(200);
    }
    clock.advance(1000);
    await h.api('POST', '/drive/v1/events', t.access_token, { event: { type: 'TYPE_PLAY', file_id: ids[0], params: { play_seconds: '42' } } });
    const filter = encodeURIComponent('{"type":{"eq":"TYPE_PLAY"}}');
    const p1 = await h.api('GET', `/drive/v1/events?limit=3&filters=${filter}`, t.access_token);
    expect(p1.body.events).toHaveLength(3);
    expect(p1.body.events[0]).toMatchObject({ file_id: ids[0], params: { play_seconds: '42' } });
    const p2 = await h.api('GET', `/drive/v1/events?limit=3&filters=${filter}&page_token=${p1.body.next_page_token}`, t.access_token);
    expect(p2.body.events).toHaveLength(2);
    expect(p2.body.next_page_token).toBe('');
    const all = [...p1.body.events, ...p2.body.events].map((e: any) => e.file_id);
    expect(new Set(all)).toEqual(new Set(ids));

    await h.api('POST', '/drive/v1/events:delete', t.access_token, { ids: [p1.body.events[0].id] });
    const afterDelete = await h.api('GET', `/drive/v1/events?filters=${filter}`, t.access_token);
    expect(afterDelete.body.events).toHaveLength(4);
    await h.api('POST', '/drive/v1/events:clear', t.access_token, { types: ['TYPE_PLAY'] });
    expect((await h.api('GET', `/drive/v1/events?filters=${filter}`, t.access_token)).body.events).toEqual([]);
    // Other kinds of event stay.
    expect((await h.api('GET', '/drive/v1/events', t.access_token)).body.events.length).toBeGreaterThan(0);
  });

  it('drops the events of files deleted for good', async () => {
    const f = await h.putFile(t, '', 'ephemeral.txt', 'e');
    await h.api('POST', '/drive/v1/files:batchDelete', t.access_token, { ids: [f.id] });
    const events = (await h.api('GET', '/drive/v1/events?limit=500', t.access_token)).body.events;
    expect(events.find((e: any) => e.file_id === f.id)).toBeUndefined();
  });

  it('refuses unknown event types and bad filters', async () => {
    const f = await h.putFile(t, '', 'x.txt', 'x');
    const bad = await h.api('POST', '/drive/v1/events', t.access_token, { event: { type: 'TYPE_DANCE', file_id: f.id } });
    expect(bad.status).toBe(400);
    const badFilter = await h.api('GET', `/drive/v1/events?filters=${encodeURIComponent('{"type":{"eq":"NOPE"}}')}`, t.access_token);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error_description).toMatch(/unknown event type/);
  });
});
