/**
 * Holding shares: an operator's status reaches the visitor at the next request (download links included) and the
 * owner reads why; a save limit answers MAX_RESTORE_COUNT past it; blocked words answer SENSITIVE_WORD on create and
 * update. Each operator's change lands in the owner's audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe('share moderation', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let owner: TokenResponse;
  let fileId: string;
  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'mod@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'mod@example.com', password: PW })).body;
    owner = await h.signUp('owner@example.com', PW);
    fileId = (await h.putFile(owner, '', 'film.mkv', 'moving pictures')).id;
  });
  afterAll(() => h.destroy());

  const share = async (body: Record<string, unknown> = {}) => h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [fileId], share_to: 'publiclink', expiration_days: -1, ...body });
  const view = async (id: string) => (await h.api('GET', `/drive/v1/share?share_id=${id}`)).body.share_status as string;

  it("takes a share down at the visitor's next request, links included, tells the owner why, and gives it back", async () => {
    const id = (await share()).body.share_id as string;
    expect(await view(id)).toBe('OK');
    const info = await h.api('GET', `/drive/v1/share/file_info?share_id=${id}&file_id=${fileId}`);
    const link = new URL(info.body.file_info.web_content_link);
    expect((await h.app.inject({ method: 'GET', url: link.pathname + link.search })).statusCode).toBe(200);

    const held = await h.api('PATCH', `/admin/v1/shares/${id}`, admin.access_token, { status: 'PROHIBITED', reason: 'Reported: not yours to share.' });
    expect(held.body).toMatchObject({ status: 'PROHIBITED', reason: 'Reported: not yours to share.', user_id: owner.sub });
    expect(await view(id)).toBe('PROHIBITED');
    expect((await h.app.inject({ method: 'GET', url: link.pathname + link.search })).statusCode).toBe(404);
    const mine = (await h.api('GET', '/drive/v1/share/list', owner.access_token)).body.data.find((s: { share_id: string }) => s.share_id === id);
    expect(mine).toMatchObject({ share_status: 'PROHIBITED', share_status_text: 'Reported: not yours to share.' });
    // Changing the share does not release it.
    expect((await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: id, title: 'Renamed' })).status).toBe(200);
    expect(await view(id)).toBe('PROHIBITED');

    await h.api('PATCH', `/admin/v1/shares/${id}`, admin.access_token, { status: 'OK' });
    expect(await view(id)).toBe('OK');
    expect((await h.app.inject({ method: 'GET', url: link.pathname + link.search })).statusCode).toBe(200);

    const log = (await h.api('GET', '/v1/user/audit', owner.access_token)).body.events;
    expect(log.map((e: { action: string }) => e.action)).toEqual(['admin.share.moderated', 'admin.share.moderated']);
    expect(log[1].details).toMatchObject({ share_id: id, status: { from: 'OK', to: 'PROHIBITED' } });
    expect((await h.api('PATCH', '/admin/v1/shares/nosuchshare', admin.access_token, { status: 'AUDITING' })).status).toBe(404);
    expect((await h.api('PATCH', `/admin/v1/shares/${id}`, owner.access_token, { status: 'OK' })).status).toBe(403);
  });

  it('answers MAX_RESTORE_COUNT past the save limit its owner set', async () => {
    const id = (await share({ restore_limit: 1 })).body.share_id as string;
    const [first, second] = [await h.signUp(), await h.signUp()];
    expect((await h.api('POST', '/drive/v1/share/restore', first.access_token, { share_id: id })).status).toBe(200);
    const refused = await h.api('POST', '/drive/v1/share/restore', second.access_token, { share_id: id });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual([{ share_status: 'MAX_RESTORE_COUNT' }]);
    // The owner raises it, and the next visitor saves.
    const raised = await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: id, restore_limit: 2 });
    expect(raised.body.restore_limit).toBe('2');
    expect((await h.api('POST', '/drive/v1/share/restore', second.access_token, { share_id: id })).status).toBe(200);
    expect((await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: id, restore_limit: -1 })).status).toBe(400);
  });

  it("refuses the operator's blocked words in a share's title and phrase, on create and on update", async () => {
    const set = await h.api('PUT', '/admin/v1/blocked-words', admin.access_token, { words: [' Casino ', 'casino', 'pirate bay'] });
    expect(set.body.words).toEqual(['casino', 'pirate bay']);
    expect((await h.api('GET', '/admin/v1/blocked-words', admin.access_token)).body.words).toEqual(['casino', 'pirate bay']);
    const titled = await share({ title: 'Best CASINO tips' });
    expect(titled.status).toBe(400);
    expect(titled.body.details).toEqual([{ share_status: 'SENSITIVE_WORD' }]);
    const phrased = await share({ share_to: 'encryptedlink', phrase: 'the pirate bay mirror' });
    expect(phrased.body.details).toEqual([{ share_status: 'SENSITIVE_WORD' }]);
    const fine = (await share({ title: 'Holiday' })).body.share_id as string;
    expect((await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: fine, title: 'casino night' })).body.details).toEqual([{ share_status: 'SENSITIVE_WORD' }]);
    expect((await h.api('GET', '/drive/v1/share/list', owner.access_token)).body.data.find((s: { share_id: string }) => s.share_id === fine).title).toBe('Holiday');
    expect((await h.api('PUT', '/admin/v1/blocked-words', owner.access_token, { words: [] })).status).toBe(403);
  });
});
