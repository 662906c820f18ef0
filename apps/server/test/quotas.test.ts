/** Transfer quotas counted in the database: parallel uploads, downloads through links and shares, calendar months in the operator's zone. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const upload = (h: TestHaul, tok: string, size: number, name = 'x.bin') =>
  h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size, parent_id: '' });
const path = (url: string) => url.replace('http://haul.test', '');
const quotas = async (h: TestHaul, tok: string) =>
  (await h.api('GET', '/drive/v1/about?with_quotas=upload_size_month,cloud_download_size_month,download_size_month,cloud_download', tok)).body.quotas;

describe('monthly upload quota under load', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({ monthlyUploadBytes: 1_000_000 });
  });
  afterAll(() => h.destroy());

  it('lets exactly the parallel uploads that fit start, and a cancelled one gives its bytes back', async () => {
    const t = await h.signUp();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(h, t.access_token, 300_000, `p${i}.bin`)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(3);
    for (const a of answers.filter((r) => r.status !== 200)) {
      expect(a.status).toBe(403);
      expect(a.body.error).toBe('monthly_upload_size_exceeded');
      expect(JSON.parse(a.body.error_description)).toMatchObject({ kind: 'upload_size_month', limit: '1000000', needed: '300000', title: expect.stringMatching(/upload limit/) });
    }
    expect((await quotas(h, t.access_token)).upload_size_month).toMatchObject({ usage: '900000', limit: '1000000' });

    await h.api('DELETE', `/drive/v1/tasks?task_ids=${ok[0]!.body.task.id}`, t.access_token);
    expect((await quotas(h, t.access_token)).upload_size_month.usage).toBe('600000');
    expect((await upload(h, t.access_token, 400_000)).status).toBe(200);
    expect((await upload(h, t.access_token, 1)).body.error).toBe('monthly_upload_size_exceeded');
  });

  it('answers storage shortage with the numbers as JSON', async () => {
    const t = await h.signUp();
    await h.ctx.db.updateTable('users').set({ storage_limit: 1000 }).where('id', '=', t.sub).execute();
    const res = await upload(h, t.access_token, 5000);
    expect(res.body.error).toBe('file_space_not_enough');
    expect(JSON.parse(res.body.error_description)).toMatchObject({ kind: 'storage', limit: '1000', usage: '0', needed: '5000', title: expect.any(String) });
  });
});

describe('download quotas', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({ monthlyDownloadBytes: 10_000, dailyDownloadBytes: 6_000 });
  });
  afterAll(() => h.destroy());

  it('counts what links send (ranges as the range) and refuses past the day and the month, with JSON details', async () => {
    const t = await h.signUp();
    const file = await h.putFile(t, '', 'a.bin', Buffer.alloc(4000, 7));
    const link = path((await h.api('GET', `/drive/v1/files/${file.id}?usage=FETCH`, t.access_token)).body.web_content_link);
    expect((await h.api('GET', link)).status).toBe(200);
    const part = await h.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=0-999' } });
    expect(part.statusCode).toBe(206);
    // A 304 and a HEAD send no body and count nothing.
    expect((await h.app.inject({ method: 'GET', url: link, headers: { 'if-none-match': part.headers.etag as string } })).statusCode).toBe(304);
    expect((await h.app.inject({ method: 'HEAD', url: link })).statusCode).toBe(200);
    expect((await quotas(h, t.access_token)).download_size_month).toMatchObject({ usage: '5000', limit: '10000', is_unlimited: false });

    const day = await h.api('GET', link);
    expect(day.status).toBe(403);
    expect(day.body.error).toBe('daily_download_size_exceeded');
    const details = JSON.parse(day.body.error_description);
    expect(details).toMatchObject({ kind: 'download_size_day', limit: '6000', usage: '5000', needed: '4000' });
    expect(Date.parse(details.reset_at)).toBeGreaterThan(Date.now());
    // Nothing was counted for the refused one: a small range still fits today.
    expect((await h.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=0-999' } })).statusCode).toBe(206);
  });

  it('charges a signed-in share visitor, and the owner for visitors without an account', async () => {
    const owner = await h.signUp();
    const visitor = await h.signUp();
    const file = await h.putFile(owner, '', 'shared.bin', Buffer.alloc(3000, 1));
    const s = (await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [file.id], share_to: 'publiclink', expiration_days: -1 })).body;
    const info = (tok?: string) => h.api('GET', `/drive/v1/share/file_info?share_id=${s.share_id}&file_id=${file.id}`, tok);
    const anonymous = path((await info()).body.file_info.web_content_link);
    const signedIn = path((await info(visitor.access_token)).body.file_info.web_content_link);
    expect((await h.api('GET', anonymous)).status).toBe(200);
    expect((await h.api('GET', signedIn)).status).toBe(200);
    expect((await quotas(h, owner.access_token)).download_size_month.usage).toBe('3000');
    expect((await quotas(h, visitor.access_token)).download_size_month.usage).toBe('3000');
    // The payer is signed into the link: naming another one breaks it.
    expect((await h.api('GET', signedIn.replace(visitor.sub, owner.sub))).status).toBe(404);
    expect((await h.api('GET', anonymous)).status).toBe(200);
    const refused = await h.api('GET', anonymous);
    expect(refused.body.error).toBe('daily_download_size_exceeded');
  });

  it('leaves premium accounts unlimited and still counts them', async () => {
    const p = await h.signUp();
    await h.ctx.db.updateTable('users').set({ premium_expire: Date.now() + 86_400_000 }).where('id', '=', p.sub).execute();
    const file = await h.putFile(p, '', 'big.bin', Buffer.alloc(8000, 2));
    const link = path((await h.api('GET', `/drive/v1/files/${file.id}?usage=FETCH`, p.access_token)).body.web_content_link);
    for (let i = 0; i < 3; i++) expect((await h.api('GET', link)).status).toBe(200);
    expect((await quotas(h, p.access_token)).download_size_month).toMatchObject({ usage: '24000', limit: '-1', is_unlimited: true });
  });
});

describe('quota periods in the operator time zone', () => {
  it('starts a new month at local midnight, not UTC, and says when', async () => {
    // 2026-11-30 23:30 in New York is 2026-12-01 04:30 UTC.
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 4, 30));
    const h = await startTestHaul({ monthlyUploadBytes: 1_000_000, dailyTaskLimit: 1, timeZone: 'America/New_York' }, clock);
    try {
      const t = await h.signUp();
      expect((await upload(h, t.access_token, 900_000)).status).toBe(200);
      const before = await quotas(h, t.access_token);
      expect(before.upload_size_month).toMatchObject({ usage: '900000', reset_at: '2026-12-01T05:00:00.000Z' });
      expect(before.cloud_download).toMatchObject({ usage: '0', limit: '1', reset_at: '2026-12-01T05:00:00.000Z' });
      expect((await upload(h, t.access_token, 200_000)).body.error).toBe('monthly_upload_size_exceeded');

      clock.advance(31 * 60_000); // 00:01 on 1 December in New York
      const tok = (await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.access_token ?? t.access_token;
      const after = await quotas(h, tok);
      expect(after.upload_size_month).toMatchObject({ usage: '0', reset_at: '2027-01-01T05:00:00.000Z' });
      expect((await upload(h, tok, 200_000)).status).toBe(200);
    } finally {
      await h.destroy();
    }
  });

  it('refuses an unknown zone at boot with a clear error', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(() => loadConfig({ HAUL_TIME_ZONE: 'Mars/Olympus' })).toThrow(/HAUL_TIME_ZONE must be an IANA time zone/);
    expect(loadConfig({ HAUL_TIME_ZONE: 'Asia/Tokyo' }).timeZone).toBe('Asia/Tokyo');
  });
});
