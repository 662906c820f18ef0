import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

describe('share calls as the seeds make them', () => {
  let h: TestHaul;
  const clock = new ManualClock();
  let owner: TokenResponse;
  let stranger: TokenResponse;
  let a: { id: string }, b: { id: string }, c: { id: string };
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    owner = await h.signUp();
    stranger = await h.signUp();
    const folder = await mkdir(h, owner.access_token, 'Trip');
    a = await h.putFile(owner, folder, 'a.jpg', 'a');
    b = await h.putFile(owner, folder, 'b.jpg', 'b');
    c = await h.putFile(owner, '', 'c.txt', 'c');
  });
  afterAll(() => h.destroy());

  const share = (body: Record<string, unknown>, token = owner.access_token) => h.api('POST', '/drive/v1/share', token, body);
  const code = (typed: string) => h.api('GET', `/drive/v1/share/code?code=${encodeURIComponent(typed)}`);

  it('takes ids and file_ids together with type "share", and gives a link with a pass code for 7 days', async () => {
    const res = await share({ type: 'share', ids: [a.id], file_ids: [b.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ share_to: 'encryptedlink', expiration_days: '7', phrase: '' });
    expect(res.body.file_ids).toEqual([b.id, a.id]);
    expect(res.body.pass_code).toMatch(/^[a-z0-9]{4}$/);
  });

  it('refuses a request that names nothing, another type, or another account\'s file', async () => {
    expect((await share({ type: 'share' })).body.error).toBe('invalid_argument');
    expect((await share({ type: 'share', ids: [] })).status).toBe(400);
    expect((await share({ type: 'collect', file_ids: [a.id] })).status).toBe(400);
    const theirs = await share({ ids: [a.id] }, stranger.access_token);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('file_not_found');
  });

  it('finds a share by its phrase, typed any case, with hyphens or spaces', async () => {
    const res = await share({ type: 'share', file_ids: [c.id], phrase: 'Summer Trip 2026' });
    expect(res.status).toBe(200);
    expect(res.body.phrase).toBe('summer trip 2026');
    const found = await code('  SUMMER-trip   2026 ');
    expect(found.status).toBe(200);
    expect(found.body.data[0].content).toBe(res.body.share_id);
    // The id still works, and a phrase nobody chose finds nothing.
    expect((await code(res.body.share_id)).body.data[0].content).toBe(res.body.share_id);
    expect((await code('winter trip 2026')).body.error).toBe('share_not_found');
    // Found by words, the share still asks for its pass code.
    const view = await h.api('GET', `/drive/v1/share?share_id=${res.body.share_id}`);
    expect(view.body.share_status).toBe('PASS_CODE_EMPTY');
    expect(view.body.files).toEqual([]);
  });

  it('slows an address that keeps trying codes and phrases that find nothing, never one typing codes that work', async () => {
    const made = await share({ type: 'share', file_ids: [c.id], phrase: 'quiet harbour walk' });
    const from = (address: string, typed: string) =>
      h.app.inject({ method: 'GET', url: `/drive/v1/share/code?code=${encodeURIComponent(typed)}`, headers: { 'x-forwarded-for': address } });
    // Right codes cost nothing, however many.
    for (let i = 0; i < 40; i++) expect((await from('198.51.100.9', 'quiet harbour walk')).statusCode).toBe(200);
    const misses: number[] = [];
    for (let i = 0; i < 32; i++) misses.push((await from('198.51.100.7', `no such phrase ${i}`)).statusCode);
    expect(misses.slice(0, 31).every((s) => s === 404)).toBe(true);
    const blocked = await from('198.51.100.7', 'quiet harbour walk');
    expect(blocked.statusCode).toBe(429);
    expect(JSON.parse(blocked.body).error).toBe('too_many_requests');
    // Another address is not held back, and the wait ends (the first is a second).
    expect((await from('198.51.100.8', made.body.share_id)).statusCode).toBe(200);
    clock.advance(1500);
    expect((await from('198.51.100.7', 'quiet harbour walk')).statusCode).toBe(200);
  });

  it('keeps a working phrase to one share, gives it back when cancelled or expired, and never on a public link', async () => {
    const first = await share({ file_ids: [a.id], phrase: 'family photos', expiration_days: 1 });
    expect(first.status).toBe(200);
    const taken = await share({ file_ids: [b.id], phrase: 'Family  Photos' }, stranger.access_token);
    expect(taken.status).toBe(404); // not their file: nothing about the phrase is said
    const clash = await share({ file_ids: [b.id], phrase: 'Family-Photos' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('already_exists');
    // Its day is over.
    await h.ctx.db.updateTable('shares').set({ expires_at: clock.now() - 1 }).where('id', '=', first.body.share_id).execute();
    const after = await share({ file_ids: [b.id], phrase: 'family photos' });
    expect(after.status).toBe(200);
    expect((await code('family photos')).body.data[0].content).toBe(after.body.share_id);
    await h.api('POST', '/drive/v1/share:batchDelete', owner.access_token, { ids: [after.body.share_id] });
    expect((await code('family photos')).body.error).toBe('share_not_found');
    expect((await share({ file_ids: [c.id], phrase: 'family photos' })).status).toBe(200);

    const open = await share({ file_ids: [a.id], share_to: 'publiclink', expiration_days: -1, phrase: 'open for all' });
    expect(open.status).toBe(400);
    expect((await share({ file_ids: [a.id], phrase: 'abc' })).status).toBe(400);
    expect((await share({ file_ids: [a.id], phrase: 'no <tags> here' })).status).toBe(400);
  });

  it('changes or removes a phrase, and drops it when the link is made public', async () => {
    const made = (await share({ file_ids: [b.id], phrase: 'old words here' })).body;
    const renamed = await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: made.share_id, phrase: 'new words here' });
    expect(renamed.body.phrase).toBe('new words here');
    expect((await code('old words here')).status).toBe(404);
    expect((await code('new words here')).body.data[0].content).toBe(made.share_id);
    const opened = await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: made.share_id, share_to: 'publiclink' });
    expect(opened.body.phrase).toBe('');
    expect((await code('new words here')).status).toBe(404);
  });

  it('says which of the files are shared already (share/status/files), and only for their owner', async () => {
    const s = (await share({ file_ids: [a.id] })).body;
    const res = await h.api('POST', '/drive/v1/share/status/files', owner.access_token, { file_ids: [a.id, b.id, c.id] });
    expect(res.status).toBe(200);
    const forA = res.body.file_statuses.filter((x: any) => x.file_id === a.id).map((x: any) => x.share_id);
    expect(forA).toContain(s.share_id);
    expect(res.body.file_statuses.every((x: any) => x.share_status === 'OK')).toBe(true);
    const theirs = await h.api('POST', '/drive/v1/share/status/files', stranger.access_token, { file_ids: [a.id] });
    expect(theirs.body.file_statuses).toEqual([]);
  });
});
