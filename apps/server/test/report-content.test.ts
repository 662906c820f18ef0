/**
 * What an operator may read of a person's files: a reported share's files (pass code or not, a file marked not
 * shareable too), a folder inside it, and a file's bytes through the operator's own link, while the report is open;
 * nothing outside the share; nobody's allowance pays; each look is in the owner's security log; a closed report, a
 * tampered link, a person's token and an operator who is one no more all get nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe("a reported share's files, for the operator", () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let owner: TokenResponse;
  let folder: string;
  let song: string;
  let cover: string;
  let secretFile: string;
  let shareId: string;
  let reportId: string;

  const files = (query = '', token = admin.access_token, id = reportId) => h.api('GET', `/admin/v1/reports/${id}/files${query}`, token);
  /** Fetches a link as a browser would: by its address alone, no token. */
  const fetchLink = async (link: string, headers: Record<string, string> = {}) => {
    const url = new URL(link);
    const res = await h.app.inject({ method: 'GET', url: url.pathname + url.search, headers });
    return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
  };
  /** Every byte anyone was charged for downloads. */
  const downloaded = async () =>
    Number((await h.ctx.db.selectFrom('traffic_usage').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('n')).where('kind', 'like', '%download%').executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'mod@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'mod@example.com', password: PW })).body;
    owner = await h.signUp('owner@example.com', PW);
    folder = await mkdir(h, owner.access_token, 'Album');
    song = (await h.putFile(owner, folder, 'song.mp3', 'a tune')).id;
    cover = (await h.putFile(owner, '', 'cover.jpg', 'a picture')).id;
    secretFile = (await h.putFile(owner, '', 'diary.txt', 'not shared')).id;
    const shared = await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [folder, cover], share_to: 'encryptedlink', pass_code: 'abcd', expiration_days: -1 });
    shareId = shared.body.share_id;
    const token = (await h.api('GET', `/drive/v1/share?share_id=${shareId}&pass_code=ABCD`)).body.pass_code_token as string;
    const reported = await h.api('POST', '/drive/v1/share/report', undefined, { share_id: shareId, pass_code_token: token, reason: 'copyright', file_id: cover });
    reportId = reported.body.id;
  });
  afterAll(() => h.destroy());

  it('lists the share without its pass code, a folder in it, and a marked file too', async () => {
    const marked = await h.api('PATCH', `/admin/v1/files/${cover}`, admin.access_token, { sensitive: true, reason: 'Reported.' });
    expect(marked.status).toBe(200);
    const top = await files();
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    expect(top.body).toMatchObject({ share_id: shareId, pass_code: true, ancestors: [] });
    expect(top.body.files.map((f: { name: string; sensitive: boolean }) => [f.name, f.sensitive])).toEqual([
      ['Album', false],
      ['cover.jpg', true],
    ]);
    expect(top.body.files[0].link).toBe('');
    const inAlbum = await files(`?parent_id=${folder}`);
    expect(inAlbum.body.ancestors).toEqual([{ id: folder, name: 'Album' }]);
    expect(inAlbum.body.files.map((f: { name: string }) => f.name)).toEqual(['song.mp3']);
    // Nothing outside the share: another file of the owner's, as a folder to open.
    const outside = await files(`?parent_id=${secretFile}`);
    expect([outside.status, outside.body.error]).toEqual([404, 'file_not_found']);
  });

  it("serves a file's bytes through the operator's link, with Range, charging nobody; a tampered link gets nothing", async () => {
    const before = await downloaded();
    const link = (await files(`?parent_id=${folder}`)).body.files[0].link as string;
    expect(link).toContain('/admin/v1/report-content/');
    const whole = await fetchLink(link);
    expect([whole.status, whole.body.toString()]).toEqual([200, 'a tune']);
    expect(whole.headers['content-disposition']).toMatch(/^attachment/);
    const part = await fetchLink(link, { range: 'bytes=2-5' });
    expect([part.status, part.body.toString()]).toEqual([206, 'tune']);
    expect(await downloaded()).toBe(before);
    const other = link.replace(encodeURIComponent(song), encodeURIComponent(secretFile));
    expect((await fetchLink(other)).status).toBe(404);
    expect((await fetchLink(link.replace(/s=[^&]+/, 's=AAAA'))).status).toBe(404);
  });

  it("records each look in the owner's security log", async () => {
    const log = await h.api('GET', '/v1/user/audit', owner.access_token);
    const looks = log.body.events.filter((e: { action: string }) => e.action === 'admin.report.viewed');
    expect(looks.length).toBeGreaterThanOrEqual(2);
  });

  it("is refused to a person's token and to no token", async () => {
    expect((await files('', owner.access_token)).status).toBe(403);
    expect((await h.api('GET', `/admin/v1/reports/${reportId}/files`)).status).toBe(401);
    expect((await files('', admin.access_token, 'nosuchreport')).status).toBe(404);
  });

  it('closes to the operator once the report is handled, links already given included; reopening opens it again', async () => {
    const link = (await files(`?parent_id=${folder}`)).body.files[0].link as string;
    const handled = await h.api('POST', `/admin/v1/reports/${reportId}`, admin.access_token, { status: 'dismissed' });
    expect(handled.status).toBe(200);
    const closed = await files();
    expect([closed.status, closed.body.error]).toEqual([409, 'failed_precondition']);
    expect((await fetchLink(link)).status).toBe(404);
    await h.api('POST', `/admin/v1/reports/${reportId}`, admin.access_token, { status: 'open' });
    expect((await fetchLink(link)).status).toBe(200);
    // An operator who is one no more: their links stop.
    await h.ctx.db.updateTable('users').set({ is_admin: 0 }).where('email', '=', 'mod@example.com').execute();
    expect((await fetchLink(link)).status).toBe(404);
  });
});
