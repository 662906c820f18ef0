/**
 * The console's share lookup and its system page: only an operator's own session reads them; a share answers its
 * title, owner, hold, save limit and counts (never its pass code), and the system its version, where data lives and
 * the last backup (null before the first).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { recordLastBackup, type LastBackup } from '../src/backup/manifest.js';
import { startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('console: one share and the system', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let owner: TokenResponse;
  let shareId: string;
  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'keeper@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'keeper@example.com', password: PW })).body as TokenResponse;
    owner = await h.signUp('sharer@example.com', PW);
    const file = await h.putFile(owner, '', 'holiday.mp4', 'twenty-two bytes long!');
    const made = await h.api('POST', '/drive/v1/share', owner.access_token, {
      file_ids: [file.id],
      share_to: 'encryptedlink',
      expiration_days: 7,
      title: 'Holiday film',
      restore_limit: 3,
    });
    expect(made.status).toBe(200);
    shareId = made.body.share_id as string;
  });
  afterAll(() => h.destroy());

  it("refuses a person's token and no token, for a share and for the system", async () => {
    for (const url of [`/admin/v1/shares/${shareId}`, '/admin/v1/system']) {
      const asPerson = await h.api('GET', url, owner.access_token);
      expect([asPerson.status, asPerson.body.error], url).toEqual([403, 'permission_denied']);
      const anonymous = await h.api('GET', url);
      expect([anonymous.status, anonymous.body.error], url).toEqual([401, 'unauthenticated']);
    }
  });

  it('answers a share by its id, with its owner, hold, save limit and counts, and never its pass code', async () => {
    await h.api('GET', `/drive/v1/share?share_id=${shareId}`);
    const got = await h.api('GET', `/admin/v1/shares/${shareId.toUpperCase()}`, admin.access_token);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      share_id: shareId,
      title: 'Holiday film',
      user_id: owner.sub,
      user_email: 'sharer@example.com',
      share_to: 'encryptedlink',
      status: 'OK',
      reason: '',
      restore_limit: '3',
      restore_count: '0',
      view_count: expect.stringMatching(/^[0-9]+$/),
      file_count: '1',
      file_size: '22',
      created_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expiration_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const { pass_code: code } = await h.ctx.db.selectFrom('shares').select('pass_code').where('id', '=', shareId).executeTakeFirstOrThrow();
    expect(JSON.stringify(got.body)).not.toContain(`"${code}"`);

    // Held: the status and reason at once; given back: no reason.
    await h.api('PATCH', `/admin/v1/shares/${shareId}`, admin.access_token, {
      status: 'PROHIBITED',
      reason: 'Reported as not theirs.',
      restore_limit: 0,
    });
    const held = (await h.api('GET', `/admin/v1/shares/${shareId}`, admin.access_token)).body;
    expect(held).toMatchObject({ status: 'PROHIBITED', reason: 'Reported as not theirs.', restore_limit: '0' });
    await h.api('PATCH', `/admin/v1/shares/${shareId}`, admin.access_token, { status: 'OK' });
    expect((await h.api('GET', `/admin/v1/shares/${shareId}`, admin.access_token)).body).toMatchObject({ status: 'OK', reason: '' });

    // Past its time it says so; cancelled or unknown, it is not found.
    await h.ctx.db
      .updateTable('shares')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', shareId)
      .execute();
    expect((await h.api('GET', `/admin/v1/shares/${shareId}`, admin.access_token)).body.status).toBe('EXPIRED');
    await h.ctx.db.updateTable('shares').set({ expires_at: null }).where('id', '=', shareId).execute();
    expect((await h.api('POST', '/drive/v1/share:batchDelete', owner.access_token, { ids: [shareId] })).status).toBe(200);
    const cancelled = await h.api('GET', `/admin/v1/shares/${shareId}`, admin.access_token);
    expect([cancelled.status, cancelled.body.error]).toEqual([404, 'share_not_found']);
    expect((await h.api('GET', '/admin/v1/shares/nosuchshare', admin.access_token)).status).toBe(404);
  });

  it('answers the version, the database and blob store, and the last backup once there is one', async () => {
    const before = await h.api('GET', '/admin/v1/system', admin.access_token);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ version: VERSION, database: h.ctx.dialect, blob_store: h.ctx.config.blobStore, last_backup: null });

    const record: LastBackup = {
      taken_at: '2026-11-20T03:00:00.000Z',
      finished_at: '2026-11-20T03:02:10.000Z',
      bytes: 5_368_709_120 + 1_048_576,
      database_bytes: 1_048_576,
      blob_count: 1200,
      blob_bytes: 5_368_709_120,
      blob_store: 'local',
      complete: false,
      dir: '/srv/backups/haul-2026-11-20',
    };
    await recordLastBackup(h.ctx.db, record);
    const after = await h.api('GET', '/admin/v1/system', admin.access_token);
    expect(after.body.last_backup).toEqual({
      taken_at: '2026-11-20T03:00:00.000Z',
      finished_at: '2026-11-20T03:02:10.000Z',
      bytes: '5369757696',
      database_bytes: '1048576',
      blob_count: '1200',
      blob_bytes: '5368709120',
      blob_store: 'local',
      complete: false,
    });
    // The backup folder's path on the server stays on the server.
    expect(JSON.stringify(after.body)).not.toContain('/srv/backups');
  });
});
