import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

const upload = (h: TestHaul, tok: string, size: number, extra = {}) =>
  h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'x.bin', size, parent_id: '', ...extra });

/** Adds a cloud download of `url`, and waits for a task to end. */
const addLink = (h: TestHaul, tok: string, url: string) =>
  h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
async function settle(h: TestHaul, tok: string, id: string) {
  for (let i = 0; i < 200; i++) {
    const x = (await h.api('GET', `/drive/v1/tasks/${id}`, tok)).body;
    if (x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR') return x;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not settle');
}

describe('monthly upload quota', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({ monthlyUploadBytes: 1_000_000 });
  });
  afterAll(() => h.destroy());

  it('counts uploads this month and refuses what would pass the limit, with a JSON title', async () => {
    const t = await h.signUp();
    expect((await upload(h, t.access_token, 600_000)).status).toBe(200);
    const over = await upload(h, t.access_token, 600_000);
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('monthly_upload_size_exceeded');
    expect(JSON.parse(over.body.error_description).title).toMatch(/upload limit/);
    const about = await h.api('GET', '/drive/v1/about?with_quotas=upload_size_month,cloud_download_size_month', t.access_token);
    expect(about.body.quotas.upload_size_month).toEqual({ limit: '1000000', usage: '600000', complimentary: '0', is_unlimited: false, reset_at: expect.any(String) });
    expect(about.body.quotas.cloud_download_size_month.is_unlimited).toBe(true);
  });

  it('does not count speed uploads, and premium accounts have no limit', async () => {
    const t = await h.signUp();
    const stored = await h.putFile(t, '', 'stored.bin', 'same');
    const ask = await upload(h, t.access_token, stored.size, { hash: stored.hash });
    const { contentHashOf } = await import('../src/storage/content-hash.js');
    await upload(h, t.access_token, stored.size, { hash: stored.hash, proof: { challenge: ask.body.proof_of_possession.challenge, answer: await contentHashOf('same') } });
    expect((await h.api('GET', '/drive/v1/about?with_quotas=upload_size_month', t.access_token)).body.quotas.upload_size_month.usage).toBe('0');

    const p = await h.signUp();
    await h.ctx.db.updateTable('users').set({ premium_expire: Date.now() + 86_400_000 }).where('id', '=', p.sub).execute();
    expect((await upload(h, p.access_token, 900_000)).status).toBe(200);
    expect((await upload(h, p.access_token, 900_000)).status).toBe(200);
  });
});

describe('monthly cloud download quota', () => {
  it('stops a download that would pass the limit and refuses new tasks once it is used up', async () => {
    const small = randomBytes(50_000);
    const big = randomBytes(300_000);
    const server = createServer((req, res) => res.end(req.url === '/big' ? big : small));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const h = await startTestHaul({ allowPrivateNetwork: true, monthlyCloudDownloadBytes: 100_000 });
    h.offline.start();
    try {
      const t = await h.signUp();
      const tooBig = await settle(h, t.access_token, (await addLink(h, t.access_token, `${base}/big`)).body.task.id);
      expect(tooBig).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: expect.stringMatching(/cloud download limit/) });
      expect((await settle(h, t.access_token, (await addLink(h, t.access_token, `${base}/a`)).body.task.id)).phase).toBe('PHASE_TYPE_COMPLETE');
      const about = await h.api('GET', '/drive/v1/about?with_quotas=cloud_download_size_month', t.access_token);
      expect(about.body.quotas.cloud_download_size_month).toMatchObject({ usage: '50000', limit: '100000' });
      expect((await settle(h, t.access_token, (await addLink(h, t.access_token, `${base}/b`)).body.task.id)).phase).toBe('PHASE_TYPE_COMPLETE');
      const refused = await addLink(h, t.access_token, `${base}/c`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('monthly_cloud_download_size_exceeded');
    } finally {
      server.close();
      await h.destroy();
    }
  });
});

describe('plan limits of cloud downloads', () => {
  it('lets premium accounts add more a day and fetch past the free per-task size', async () => {
    const big = randomBytes(300_000);
    const server = createServer((req, res) => res.end(req.url?.startsWith('/big') ? big : 'small'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const h = await startTestHaul({ allowPrivateNetwork: true, dailyTaskLimit: 2, premiumDailyTaskLimit: 4, offlineMaxTaskBytes: 100_000 });
    h.offline.start();
    try {
      const free = await h.signUp();
      const tooBig = await settle(h, free.access_token, (await addLink(h, free.access_token, `${base}/big`)).body.task.id);
      expect(tooBig).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: expect.stringMatching(/one cloud download of your plan may be up to 97\.7 KB/) });
      expect((await addLink(h, free.access_token, `${base}/a`)).status).toBe(200);
      const third = await addLink(h, free.access_token, `${base}/b`);
      expect(third.status).toBe(403);
      expect(third.body.error).toBe('task_daily_create_limit');
      expect(JSON.parse(third.body.error_description)).toMatchObject({ title: expect.stringMatching(/2 cloud downloads a day.*upgrade/), kind: 'cloud_download', limit: '2', usage: '2', needed: '1' });

      const premium = await h.signUp();
      await h.ctx.db.updateTable('users').set({ premium_expire: Date.now() + 86_400_000 }).where('id', '=', premium.sub).execute();
      const done = await settle(h, premium.access_token, (await addLink(h, premium.access_token, `${base}/big`)).body.task.id);
      expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
      expect(done.file_size).toBe('300000');
      for (const n of [1, 2, 3]) expect((await addLink(h, premium.access_token, `${base}/p${n}`)).status).toBe(200);
      expect((await addLink(h, premium.access_token, `${base}/p4`)).body.error).toBe('task_daily_create_limit');
    } finally {
      server.close();
      await h.destroy();
    }
  });
});
