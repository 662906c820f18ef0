/**
 * Reports of shares: a visitor, signed in or not, reports a share they can open (an encrypted one with the token its
 * pass code earned), optionally one item of it; the operator's queue shows each with its share, owner, item and
 * reporter; holding the share from a report closes every open report of it and the visitor's next request answers
 * the hold; dismissing leaves the share alone; reports from one network are limited in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe('share reports', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let owner: TokenResponse;
  let reader: TokenResponse;
  let film: string;
  let folder: string;
  let inside: string;
  let other: string;
  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'mod@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'mod@example.com', password: PW })).body;
    owner = await h.signUp('owner@example.com', PW);
    reader = await h.signUp('reader@example.com', PW);
    film = (await h.putFile(owner, '', 'film.mkv', 'moving pictures')).id;
    folder = await mkdir(h, owner.access_token, 'Album');
    inside = (await h.putFile(owner, folder, 'song.mp3', 'a tune')).id;
    other = (await h.putFile(owner, '', 'private.txt', 'not shared')).id;
  });
  afterAll(() => h.destroy());

  const share = async (ids: string[], body: Record<string, unknown> = {}) =>
    (await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: ids, share_to: 'publiclink', expiration_days: -1, ...body })).body as { share_id: string; pass_code: string };
  const report = (body: Record<string, unknown>, token?: string) => h.api('POST', '/drive/v1/share/report', token, body);
  const queue = async (status = 'open') => (await h.api('GET', `/admin/v1/reports?status=${status}`, admin.access_token)).body;
  const view = async (id: string) => (await h.api('GET', `/drive/v1/share?share_id=${id}`)).body.share_status as string;
  const count = async () => Number((await h.ctx.db.selectFrom('share_reports').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  it('takes reports from whoever can open the share, of the share or an item in it, and refuses the rest', async () => {
    const open = await share([film, folder]);
    const secret = await share([film], { share_to: 'encryptedlink', pass_code: 'abcd' });
    const before = await count();

    const anon = await report({ share_id: open.share_id, reason: 'copyright', message: '  My film.\u0007  ' });
    expect(anon.status, JSON.stringify(anon.body)).toBe(200);
    expect(anon.body.id).toMatch(/\w+/);
    expect((await report({ share_id: open.share_id, reason: 'spam', file_id: inside }, reader.access_token)).status).toBe(200);

    // An encrypted link: nothing without the token its pass code earned.
    const refused = await report({ share_id: secret.share_id, reason: 'other' });
    expect(refused.status).toBe(403);
    expect(refused.body.details[0].share_status).toBe('PASS_CODE_EMPTY');
    const token = (await h.api('GET', `/drive/v1/share?share_id=${secret.share_id}&pass_code=ABCD`)).body.pass_code_token as string;
    expect((await report({ share_id: secret.share_id, pass_code_token: token, reason: 'violence' })).status).toBe(200);

    // Bad input changes nothing.
    expect((await report({ share_id: open.share_id, reason: 'boring' })).status).toBe(400);
    expect((await report({ share_id: open.share_id, reason: 'spam', message: 'x'.repeat(1001) })).status).toBe(400);
    const outside = await report({ share_id: open.share_id, reason: 'spam', file_id: other });
    expect([outside.status, outside.body.error]).toEqual([404, 'file_not_found']);
    expect((await report({ share_id: 'nosuchshare', reason: 'spam' })).body.details[0].share_status).toBe('NOT_FOUND');
    expect(await count()).toBe(before + 3);

    const rows = await h.ctx.db.selectFrom('share_reports').selectAll().where('share_id', '=', open.share_id).orderBy('created_at').orderBy('reason').execute();
    expect(rows.map((r) => [r.reason, r.message, r.file_id, r.reporter_id, r.owner_id, r.status])).toEqual([
      ['copyright', 'My film.', '', '', owner.sub, 'open'],
      ['spam', '', inside, reader.sub, owner.sub, 'open'],
    ]);
  });

  it("shows the operator the queue; a hold closes the share's open reports and reaches the visitor at once", async () => {
    const open = await share([film]);
    const calm = await share([film]);
    await report({ share_id: open.share_id, reason: 'copyright', message: 'Mine.' });
    await report({ share_id: open.share_id, reason: 'illegal', file_id: film }, reader.access_token);
    const lone = (await report({ share_id: calm.share_id, reason: 'spam' })).body.id as string;

    const q = await queue();
    const mine = q.reports.filter((r: { share_id: string }) => r.share_id === open.share_id);
    expect(Number(q.open_count)).toBeGreaterThanOrEqual(3);
    expect(mine.map((r: Record<string, string>) => [r.reason, r.reporter_email, r.file_name, r.owner_email, r.share_status, r.open_reports])).toEqual([
      ['illegal', 'reader@example.com', 'film.mkv', 'owner@example.com', 'OK', '2'],
      ['copyright', '', '', 'owner@example.com', 'OK', '2'],
    ]);
    // Paged newest first.
    const first = (await h.api('GET', '/admin/v1/reports?limit=1', admin.access_token)).body;
    expect(first.reports).toHaveLength(1);
    expect((await h.api('GET', `/admin/v1/reports?limit=1&page_token=${encodeURIComponent(first.next_page_token)}`, admin.access_token)).body.reports[0].id).not.toBe(first.reports[0].id);

    const handled = await h.api('POST', `/admin/v1/reports/${mine[0].id}`, admin.access_token, { status: 'resolved', hold: 'PROHIBITED', reason: 'Not yours to share.', note: 'Checked the film.' });
    expect(handled.status, JSON.stringify(handled.body)).toBe(200);
    expect(handled.body.closed).toBe('2');
    expect(handled.body.report).toMatchObject({ status: 'resolved', note: 'Checked the film.', share_status: 'PROHIBITED', open_reports: '0' });
    expect(await view(open.share_id)).toBe('PROHIBITED');
    // A held share takes no more reports: it says why, as to any visitor.
    expect((await report({ share_id: open.share_id, reason: 'spam' })).body.details[0].share_status).toBe('PROHIBITED');
    const resolved = (await queue('resolved')).reports.filter((r: { share_id: string }) => r.share_id === open.share_id);
    expect(resolved.map((r: { status: string }) => r.status)).toEqual(['resolved', 'resolved']);
    expect((await queue()).reports.some((r: { share_id: string }) => r.share_id === open.share_id)).toBe(false);

    // Dismissed: the share stays open. Reopened: back in the queue, alone.
    expect((await h.api('POST', `/admin/v1/reports/${lone}`, admin.access_token, { status: 'dismissed' })).body.closed).toBe('1');
    expect(await view(calm.share_id)).toBe('OK');
    expect((await h.api('POST', `/admin/v1/reports/${lone}`, admin.access_token, { status: 'open' })).body.report.status).toBe('open');

    // The owner's log names the hold and the handling; the operator's address and ip are the console's.
    const log = (await h.api('GET', '/v1/user/audit', owner.access_token)).body.events.map((e: { action: string }) => e.action);
    expect(log).toEqual(expect.arrayContaining(['admin.share.moderated', 'admin.report.handled']));

    // Refused: a hold without resolving, a report that does not exist, a person's token.
    expect((await h.api('POST', `/admin/v1/reports/${lone}`, admin.access_token, { status: 'dismissed', hold: 'AUDITING' })).status).toBe(400);
    expect((await h.api('POST', '/admin/v1/reports/nosuch', admin.access_token, { status: 'dismissed' })).status).toBe(404);
    expect((await h.api('POST', `/admin/v1/reports/${lone}`, owner.access_token, { status: 'dismissed' })).status).toBe(403);
    expect((await h.api('GET', '/admin/v1/reports', reader.access_token)).status).toBe(403);
    expect((await queue()).reports.find((r: { id: string }) => r.id === lone).status).toBe('open');
  });

  it('marks a reported file not shareable: hidden in its shared folder, refused when shared again, then given back', async () => {
    const album = await share([folder]);
    const seen = async () => (await h.api('GET', `/drive/v1/share?share_id=${album.share_id}&parent_id=${folder}`)).body.files.map((f: { name: string }) => f.name);
    expect(await seen()).toContain('song.mp3');
    const id = (await report({ share_id: album.share_id, reason: 'copyright', file_id: inside })).body.id as string;
    expect((await queue()).reports.find((r: { id: string }) => r.id === id)).toMatchObject({ file_name: 'song.mp3', file_sensitive: false });

    // Refused, changing nothing: no reason, a report naming no file, a file mark without resolving.
    expect((await h.api('POST', `/admin/v1/reports/${id}`, admin.access_token, { status: 'resolved', mark_file: true })).status).toBe(400);
    expect((await h.api('POST', `/admin/v1/reports/${id}`, admin.access_token, { status: 'dismissed', mark_file: true, reason: 'x' })).status).toBe(400);
    const whole = (await report({ share_id: album.share_id, reason: 'spam' })).body.id as string;
    expect((await h.api('POST', `/admin/v1/reports/${whole}`, admin.access_token, { status: 'resolved', mark_file: true, reason: 'x' })).status).toBe(400);
    expect(await seen()).toContain('song.mp3');

    const marked = await h.api('POST', `/admin/v1/reports/${id}`, admin.access_token, { status: 'resolved', mark_file: true, reason: 'Not theirs to share.' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.report).toMatchObject({ status: 'resolved', file_sensitive: true, share_status: 'OK' });
    expect(await seen()).not.toContain('song.mp3');
    expect((await h.api('GET', `/drive/v1/share/file_info?share_id=${album.share_id}&file_id=${inside}`)).status).toBe(404);
    expect((await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [inside], share_to: 'publiclink', expiration_days: -1 })).body.error).toBe('sensitive_resource');
    // The owner's own drive still has it, flagged, and their log says why.
    const mine = (await h.api('GET', `/drive/v1/files/${inside}`, owner.access_token)).body;
    expect([mine.sensitive, mine.audit?.status]).toEqual([1, 'STATUS_SENSITIVE_RESOURCE']);
    const log = (await h.api('GET', '/v1/user/audit', owner.access_token)).body.events.find((e: { action: string }) => e.action === 'admin.file.marked');
    expect(log.details).toMatchObject({ file_id: inside, name: 'song.mp3', sensitive: { from: false, to: true }, reason: 'Not theirs to share.' });

    // Given back from the console: shown again. Refused: no reason, no such file, a person's token.
    expect((await h.api('PATCH', `/admin/v1/files/${inside}`, admin.access_token, { sensitive: true })).status).toBe(400);
    expect((await h.api('PATCH', '/admin/v1/files/nosuchfile', admin.access_token, { sensitive: false })).status).toBe(404);
    expect((await h.api('PATCH', `/admin/v1/files/${inside}`, owner.access_token, { sensitive: false })).status).toBe(403);
    const back = await h.api('PATCH', `/admin/v1/files/${inside}`, admin.access_token, { sensitive: false });
    expect(back.body).toEqual({ file_id: inside, name: 'song.mp3', user_id: owner.sub, sensitive: false });
    expect(await seen()).toContain('song.mp3');
  });

  it('lists the most viewed and the most saved shares, most first', async () => {
    const [busy, quiet] = [await share([film]), await share([film])];
    for (let i = 0; i < 3; i++) await view(busy.share_id);
    await view(quiet.share_id);
    const saved = await h.api('POST', '/drive/v1/share/restore', reader.access_token, { share_id: quiet.share_id, parent_id: '' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const top = async (order: string) =>
      (await h.api('GET', `/admin/v1/shares?order=${order}&limit=100`, admin.access_token)).body.shares.filter((s: { share_id: string }) => [busy.share_id, quiet.share_id].includes(s.share_id));
    expect((await top('views')).map((s: Record<string, string>) => [s.share_id, s.view_count, s.user_email])).toEqual([
      [busy.share_id, '3', 'owner@example.com'],
      [quiet.share_id, '1', 'owner@example.com'],
    ]);
    expect((await top('saves')).map((s: Record<string, string>) => [s.share_id, s.restore_count])).toEqual([[quiet.share_id, '1']]);
    expect((await h.api('GET', '/admin/v1/shares?order=size', admin.access_token)).status).toBe(400);
    expect((await h.api('GET', '/admin/v1/shares?order=views', reader.access_token)).status).toBe(403);
  });

  it('takes ten reports an hour from one network, kept in the database', async () => {
    const open = await share([film]);
    const from = (ip: string) => h.app.inject({ method: 'POST', url: '/drive/v1/share/report', remoteAddress: ip, payload: { share_id: open.share_id, reason: 'spam' } });
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.9')).statusCode).toBe(200);
    const late = await from('203.0.113.9');
    expect(late.statusCode).toBe(429);
    expect(JSON.parse(late.body).error).toBe('too_many_requests');
    expect((await from('198.51.100.7')).statusCode).toBe(200);
    expect(await h.ctx.db.selectFrom('attempt_limits').select('key').where('key', 'like', 'report|%').execute()).not.toEqual([]);
  });

  it('puts a feedback message naming a share in the queue, its sender as the reporter', async () => {
    const open = await share([film]);
    const sent = await h.api('POST', '/v1/feedback', reader.access_token, { message: `Please look at http://haul.test/s/${open.share_id} — it is my film.`, where: '/drive/all' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const before = await count();
    const asPerson = await h.api('POST', `/admin/v1/feedback/${sent.body.id}/report`, reader.access_token, { share_id: open.share_id, reason: 'copyright' });
    expect(asPerson.status).toBe(403);
    const unnamed = await h.api('POST', `/admin/v1/feedback/${sent.body.id}/report`, admin.access_token, { share_id: 'notnamedshare', reason: 'copyright' });
    expect([unnamed.status, unnamed.body.error]).toEqual([400, 'invalid_argument']);
    expect((await h.api('POST', '/admin/v1/feedback/nosuch/report', admin.access_token, { share_id: open.share_id, reason: 'copyright' })).status).toBe(404);
    expect(await count()).toBe(before);
    const made = await h.api('POST', `/admin/v1/feedback/${sent.body.id}/report`, admin.access_token, { share_id: open.share_id, reason: 'copyright' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const row = await h.ctx.db.selectFrom('share_reports').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect([row.share_id, row.owner_id, row.reporter_id, row.reason, row.status, row.message]).toEqual([open.share_id, owner.sub, reader.sub, 'copyright', 'open', `Please look at http://haul.test/s/${open.share_id} — it is my film.`]);
    expect((await queue()).reports.map((r: { id: string }) => r.id)).toContain(made.body.id);
  });
});
