import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

/** A second user tries every endpoint with the first user's ids: each answers file_not_found and changes nothing. */
describe('per-user isolation', () => {
  let h: TestHaul;
  let owner: TokenResponse;
  let intruder: TokenResponse;
  let ids: { folder: string; file: string; trashed: string; event: string; intruderFolder: string };

  const snapshot = async () => ({
    files: await h.ctx.db.selectFrom('files').selectAll().where('user_id', '=', owner.sub).orderBy('id').execute(),
    events: await h.ctx.db.selectFrom('events').selectAll().where('user_id', '=', owner.sub).orderBy('id').execute(),
    blobs: await h.ctx.db.selectFrom('blobs').selectAll().orderBy('hash').execute(),
  });

  beforeAll(async () => {
    h = await startTestHaul();
    owner = await h.signUp();
    intruder = await h.signUp();
    const folder = await mkdir(h, owner.access_token, 'Private');
    const file = (await h.putFile(owner, folder, 'secret.txt', 'top secret')).id;
    const trashed = (await h.putFile(owner, '', 'binned.txt', 'old')).id;
    await h.api('POST', '/drive/v1/files:batchTrash', owner.access_token, { ids: [trashed] });
    await h.api('POST', '/drive/v1/events', owner.access_token, { event: { type: 'TYPE_PLAY', file_id: file } });
    const event = (await h.api('GET', '/drive/v1/events', owner.access_token)).body.events[0].id;
    const intruderFolder = await mkdir(h, intruder.access_token, 'Mine');
    ids = { folder, file, trashed, event, intruderFolder };
  });
  afterAll(() => h.destroy());

  it('answers every call on a foreign id with file_not_found and changes nothing', async () => {
    const before = await snapshot();
    const { folder, file, trashed, event, intruderFolder } = ids;
    const calls: [string, string, unknown?][] = [];
    for (const id of [folder, file, trashed]) {
      calls.push(['GET', `/drive/v1/files/${id}`]);
      calls.push(['GET', `/drive/v1/files/${id}?usage=FETCH`]);
      calls.push(['GET', `/drive/v1/files/${id}/ancestors`]);
      calls.push(['PATCH', `/drive/v1/files/${id}`, { name: 'pwned' }]);
      for (const op of ['batchTrash', 'batchUntrash', 'batchDelete', 'star', 'unstar']) calls.push(['POST', `/drive/v1/files:${op}`, { ids: [id] }]);
      // Mixed with one of the intruder's own ids: still refused as a whole.
      calls.push(['POST', '/drive/v1/files:batchDelete', { ids: [intruderFolder, id] }]);
      calls.push(['POST', '/drive/v1/files:batchMove', { ids: [id], to: { parent_id: intruderFolder } }]);
      calls.push(['POST', '/drive/v1/files:batchCopy', { ids: [id], to: { parent_id: intruderFolder } }]);
      calls.push(['POST', '/drive/v1/events', { event: { type: 'TYPE_PLAY', file_id: id } }]);
    }
    calls.push(['GET', `/drive/v1/files?parent_id=${folder}`]);
    calls.push(['POST', '/drive/v1/files', { kind: 'drive#folder', name: 'planted', parent_id: folder }]);
    calls.push(['POST', '/drive/v1/files:batchMove', { ids: [intruderFolder], to: { parent_id: folder } }]);
    calls.push(['POST', '/drive/v1/files:batchCopy', { ids: [intruderFolder], to: { parent_id: folder } }]);
    calls.push(['POST', '/drive/v1/events:delete', { ids: [event] }]);

    for (const [method, url, body] of calls) {
      const res = await h.api(method, url, intruder.access_token, body);
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(404);
      expect(res.body.error, `${method} ${url}`).toBe('file_not_found');
      expect(JSON.stringify(res.body)).not.toMatch(/secret|Private|binned/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('never shows another user\'s files in lists, search, trash, events or sync', async () => {
    const tok = intruder.access_token;
    const lists = [
      '/drive/v1/files?parent_id=*&limit=500',
      `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"name":{"contains":"secret"}}')}`,
      `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`,
      `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"modified_time":{"gt":"1970-01-01T00:00:00Z"}}')}`,
    ];
    for (const url of lists) {
      const res = await h.api('GET', url, tok);
      expect(res.status).toBe(200);
      expect(res.body.files.every((f: any) => f.user_id === intruder.sub)).toBe(true);
    }
    const events = await h.api('GET', '/drive/v1/events', tok);
    expect(events.body.events.every((e: any) => e.file_id !== ids.file)).toBe(true);
    const about = await h.api('GET', '/drive/v1/about', tok);
    expect(about.body.quota.usage).toBe('0');
  });
});
