/**
 * The console's system health: storage figures from the blob rows, queue counts with a failed and a stuck job, the
 * operator's retry (back to waiting, audited), processes by their heartbeats (a second server on the same database
 * appears; a stale row shows as gone; a graceful stop removes its row), the configuration with every secret masked,
 * and usage counts per day. Only an operator's own session reads any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHASE, type TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { isSecretKey, maskedConfig } from '../src/admin/config-mask.js';
import { buildHaul } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { countEvents } from '../src/stats/stat-counts.js';
import { startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

/** Every secret the configuration can hold, each a value found nowhere else. */
const SECRETS = {
  smtpUser: 'mailuser7q',
  smtpPass: 'SMTP-PASS-9f2k',
  smsSecret: 'SMS-SECRET-4hv8',
  smsToken: 'SMS-URL-TOKEN-2mz',
  metricsToken: 'METRICS-TOKEN-8xw1',
  torrentPass: 'TORRENT-PASS-5tq',
  stripeKey: 'sk_test_STRIPE-KEY-3pl',
  stripeHook: 'whsec_STRIPE-HOOK-6yn',
  paypalSecret: 'PAYPAL-SECRET-1dd',
  oidcSecret: 'OIDC-SECRET-0rr',
  dbPass: 'DB-PASS-7ee',
  s3Key: 'AKIA-S3-KEY-4uu',
  s3Secret: 'S3-SECRET-9ii',
  issuerPass: 'ISSUER-PASS-2bb',
};

const secretConfig = (): Partial<Config> => ({
  smtpUrl: `smtp://${SECRETS.smtpUser}:${SECRETS.smtpPass}@mail.example.test:587`,
  // Mail is set, but sign-up in this test needs no code.
  signupVerification: 'off',
  smsWebhookUrl: `https://sms.example.test/send?token=${SECRETS.smsToken}`,
  smsWebhookSecret: SECRETS.smsSecret,
  metricsToken: SECRETS.metricsToken,
  torrentDaemonUser: 'torrents',
  torrentDaemonPassword: SECRETS.torrentPass,
  stripe: { secretKey: SECRETS.stripeKey, webhookSecret: SECRETS.stripeHook, apiBase: null },
  paypal: { clientId: 'paypal-client', clientSecret: SECRETS.paypalSecret, webhookId: 'WH-1', apiBase: new URL('https://api-m.sandbox.paypal.com') },
  oidcProviders: [{ id: 'acme', name: 'Acme', issuer: `https://svc:${SECRETS.issuerPass}@id.acme.test`, clientId: 'haul', clientSecret: SECRETS.oidcSecret, scopes: ['openid'] }],
});

describe('console: system health', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let person: TokenResponse;
  let failedId: string;
  let stuckId: string;
  const get = (url: string) => h.api('GET', url, admin.access_token);

  beforeAll(async () => {
    // Workers are not started: the downloads stay where the test puts them.
    h = await startTestHaul({ allowPrivateNetwork: true, ...secretConfig() });
    await createUser(h.ctx, { email: 'ops@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'ops@example.com', password: PW })).body as TokenResponse;
    person = await h.signUp('downloader@example.com', PW);
    const add = async (name: string) => {
      const r = await h.api('POST', '/drive/v1/files', person.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `http://127.0.0.1:9/${name}` }, parent_id: '' });
      expect(r.status).toBe(200);
      return r.body.task.id as string;
    };
    failedId = await add('failed.bin');
    stuckId = await add('stuck.bin');
    await add('waiting.bin');
    const now = Date.now();
    await h.ctx.db.updateTable('tasks').set({ phase: PHASE.ERROR, message: 'connection refused', updated_time: now - 5000 }).where('id', '=', failedId).execute();
    // Running, last written long before the lease: its worker is gone.
    await h.ctx.db.updateTable('tasks').set({ phase: PHASE.RUNNING, updated_time: now - (h.ctx.config.taskLeaseSeconds + 60) * 1000 }).where('id', '=', stuckId).execute();
  });
  afterAll(() => h.destroy());

  it("refuses a person's token and no token on every health call", async () => {
    const calls: [string, string][] = [
      ['GET', '/admin/v1/system/storage'],
      ['GET', '/admin/v1/system/queues'],
      ['GET', '/admin/v1/system/processes'],
      ['GET', '/admin/v1/system/config'],
      ['GET', '/admin/v1/system/stats'],
      ['POST', `/admin/v1/system/jobs/offline/${failedId}/retry`],
    ];
    for (const [method, url] of calls) {
      const asPerson = await h.api(method, url, person.access_token);
      expect([asPerson.status, asPerson.body.error], url).toEqual([403, 'permission_denied']);
      const anonymous = await h.api(method, url);
      expect([anonymous.status, anonymous.body.error], url).toEqual([401, 'unauthenticated']);
    }
    // The refused retry changed nothing.
    expect((await h.ctx.db.selectFrom('tasks').select('phase').where('id', '=', failedId).executeTakeFirst())?.phase).toBe(PHASE.ERROR);
  });

  it('answers storage from the blob rows: stored once, referenced as often as files point at it', async () => {
    await h.putFile(person, '', 'a.txt', 'seven b');
    await h.putFile(person, '', 'a-copy.txt', 'seven b');
    await h.putFile(person, '', 'b.txt', 'eleven byte');
    const res = await get('/admin/v1/system/storage');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ blob_count: '2', blob_bytes: '18', reference_count: '3', referenced_bytes: '25', unreferenced_count: '0', unreferenced_bytes: '0', store: h.ctx.config.blobStore });
    if (h.ctx.config.blobStore === 'local') {
      expect(Number(res.body.disk_total_bytes)).toBeGreaterThan(0);
      expect(Number(res.body.disk_free_bytes)).toBeGreaterThan(0);
      expect(Number(res.body.disk_free_bytes)).toBeLessThanOrEqual(Number(res.body.disk_total_bytes));
    } else expect(res.body.disk_free_bytes).toBeNull();
  });

  it('counts each queue by state and lists the failed and the stuck download with their owner', async () => {
    const res = await get('/admin/v1/system/queues');
    expect(res.status).toBe(200);
    expect(res.body.queues).toEqual([
      { kind: 'offline', waiting: 1, running: 1, failed: 1, stuck: 1 },
      { kind: 'decompress', waiting: 0, running: 0, failed: 0, stuck: 0 },
      { kind: 'transcode', waiting: 0, running: 0, failed: 0, stuck: 0 },
    ]);
    const byId = new Map(res.body.jobs.map((j: any) => [j.id, j]));
    expect(byId.get(failedId)).toMatchObject({ kind: 'offline', state: 'failed', name: 'failed.bin', message: 'connection refused', user_email: 'downloader@example.com', retryable: true });
    expect(byId.get(stuckId)).toMatchObject({ kind: 'offline', state: 'stuck', name: 'stuck.bin', retryable: true });
    expect(res.body.jobs).toHaveLength(2);
  });

  it('retries the failed download and the stuck one back to waiting, each an audit event', async () => {
    const bad = await h.api('POST', `/admin/v1/system/jobs/offline/${'x'.repeat(20)}/retry`, admin.access_token);
    expect([bad.status, bad.body.error]).toEqual([404, 'not_found']);
    const failed = await h.api('POST', `/admin/v1/system/jobs/offline/${failedId}/retry`, admin.access_token);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ kind: 'offline', state: 'waiting' });
    const renewed = await h.ctx.db.selectFrom('tasks').selectAll().where('id', '=', failed.body.id).executeTakeFirstOrThrow();
    expect([renewed.phase, renewed.name, renewed.user_id]).toEqual([PHASE.PENDING, 'failed.bin', person.sub]);
    const stuck = await h.api('POST', `/admin/v1/system/jobs/offline/${stuckId}/retry`, admin.access_token);
    expect(stuck.body).toEqual({ kind: 'offline', id: stuckId, state: 'waiting' });
    expect((await h.ctx.db.selectFrom('tasks').select('phase').where('id', '=', stuckId).executeTakeFirst())?.phase).toBe(PHASE.PENDING);
    // A waiting task is neither failed nor stuck.
    const again = await h.api('POST', `/admin/v1/system/jobs/offline/${stuckId}/retry`, admin.access_token);
    expect([again.status, again.body.error]).toEqual([400, 'invalid_argument']);
    const queues = await get('/admin/v1/system/queues');
    expect(queues.body.queues[0]).toEqual({ kind: 'offline', waiting: 3, running: 0, failed: 0, stuck: 0 });
    const log = await get('/admin/v1/audit?action=admin.job.retried');
    expect(log.body.events).toHaveLength(2);
    expect(log.body.events.map((e: any) => e.details.state).sort()).toEqual(['failed', 'stuck']);
    expect(log.body.events[0]).toMatchObject({ user_id: person.sub, actor_email: 'ops@example.com' });
  });

  it('retries a failed transcode back into its queue', async () => {
    const now = Date.now();
    await h.ctx.db.insertInto('media_jobs').values({ hash: 'f'.repeat(64), phase: PHASE.ERROR, progress: 40, message: 'ffmpeg failed', lease_id: '', attempts: 3, created_time: now, updated_time: now, user_id: person.sub }).execute();
    const jobs = (await get('/admin/v1/system/queues')).body.jobs;
    expect(jobs.find((j: any) => j.kind === 'transcode')).toMatchObject({ id: 'f'.repeat(64), state: 'failed', retryable: true, user_email: 'downloader@example.com' });
    const res = await h.api('POST', `/admin/v1/system/jobs/transcode/${'f'.repeat(64)}/retry`, admin.access_token);
    expect(res.status).toBe(200);
    expect((await h.ctx.db.selectFrom('media_jobs').select(['phase', 'attempts']).where('hash', '=', 'f'.repeat(64)).executeTakeFirst())).toEqual({ phase: PHASE.PENDING, attempts: 0 });
  });

  it('lists this server and a second one on the same database; a stale row shows as gone, a day-old one not at all', async () => {
    const now = Date.now();
    await h.ctx.db.insertInto('process_heartbeats').values({ id: 'stale-one', role: 'serve', version: '0.0.1', host: 'old-box', pid: 42, started_at: now - 600_000, seen_at: now - 180_000 }).execute();
    await h.ctx.db.insertInto('process_heartbeats').values({ id: 'long-gone', role: 'serve', version: '0.0.1', host: 'older-box', pid: 43, started_at: now - 3 * 86_400_000, seen_at: now - 2 * 86_400_000 }).execute();
    const second = await buildHaul({ ...h.ctx.config }, { logger: false, heartbeat: 'worker' });
    try {
      await expect.poll(async () => (await h.ctx.db.selectFrom('process_heartbeats').select('id').where('role', '=', 'worker').execute()).length).toBe(1);
      const res = await get('/admin/v1/system/processes');
      expect(res.status).toBe(200);
      const list = res.body.processes as any[];
      const alive = list.filter((p) => p.alive && p.pid === process.pid);
      expect(alive.map((p) => p.role).sort()).toEqual(['all', 'worker']);
      expect(alive[0]).toMatchObject({ version: expect.any(String), host: expect.any(String) });
      expect(list.find((p) => p.id === 'stale-one')).toMatchObject({ alive: false, host: 'old-box', role: 'serve' });
      expect(list.find((p) => p.id === 'long-gone')).toBeUndefined();
    } finally {
      await second.close();
    }
    // A graceful stop removes its row; the second server's first beat purged the day-old one.
    const rows = await h.ctx.db.selectFrom('process_heartbeats').select(['role', 'id']).execute();
    expect(rows.filter((r) => r.role === 'worker')).toEqual([]);
    expect(rows.find((r) => r.id === 'long-gone')).toBeUndefined();
  });

  it('answers the configuration with no secret in it, and says which are masked', async () => {
    const res = await get('/admin/v1/system/config');
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), name).toBe(false);
    const entry = (key: string) => res.body.entries.find((e: any) => e.key === key);
    for (const key of ['smtpUrl', 'smsWebhookUrl', 'smsWebhookSecret', 'metricsToken', 'torrentDaemonPassword', 'stripe.secretKey', 'stripe.webhookSecret', 'paypal.clientSecret', 'oidcProviders.0.clientSecret']) {
      expect(entry(key), key).toEqual({ key, value: '', masked: true });
    }
    expect(entry('oidcProviders.0.issuer')).toEqual({ key: 'oidcProviders.0.issuer', value: 'https://id.acme.test/', masked: false });
    expect(entry('paypal.clientId')).toMatchObject({ value: 'paypal-client', masked: false });
    expect(entry('offlineConcurrency')).toMatchObject({ value: String(h.ctx.config.offlineConcurrency), masked: false });
  });

  it('masks every secret of a full configuration, database and bucket keys included, by name and in addresses', () => {
    const config: Config = {
      ...loadConfig({}),
      ...secretConfig(),
      databaseUrl: `postgres://haul:${SECRETS.dbPass}@db.example.test:5432/haul?sslmode=require`,
      blobStore: 's3',
      s3: { endpoint: `https://${SECRETS.s3Key}:${SECRETS.s3Secret}@s3.example.test`, bucket: 'haul', region: 'auto', accessKeyId: SECRETS.s3Key, secretAccessKey: SECRETS.s3Secret, forcePathStyle: true, presignedDownloads: false },
      publicUrl: `https://${SECRETS.smtpUser}:${SECRETS.smtpPass}@drive.example.test`,
    };
    const entries = maskedConfig(config);
    const text = JSON.stringify(entries);
    for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), name).toBe(false);
    const value = (key: string) => entries.find((e) => e.key === key);
    expect(value('databaseUrl')?.masked).toBe(true);
    expect(value('s3.accessKeyId')?.masked).toBe(true);
    expect(value('s3.endpoint')?.value).toBe('https://s3.example.test/');
    expect(value('publicUrl')?.value).toBe('https://drive.example.test/');
    expect(value('s3.bucket')).toMatchObject({ value: 'haul', masked: false });
    // Keys that only mention a secret word are not secrets.
    expect(value('accessTokenTtlSeconds')).toMatchObject({ value: String(config.accessTokenTtlSeconds), masked: false });
    expect(value('allowPrivateNetwork')?.masked).toBe(false);
    expect(isSecretKey('oidcProviders.0.client_secret')).toBe(true);
    expect(isSecretKey('stripe.apiKey')).toBe(true);
  });

  it('answers the usage counts of the last 30 days, every day of the span listed', async () => {
    const now = Date.now();
    await countEvents(h.ctx.db, [{ event: 'play_limited_show', count: 4 }], now, h.ctx.config.timeZone);
    await countEvents(h.ctx.db, [{ event: 'play_limited_show', count: 2 }], now - 3 * 86_400_000, h.ctx.config.timeZone);
    await countEvents(h.ctx.db, [{ event: 'local_upload_success' }], now - 40 * 86_400_000, h.ctx.config.timeZone);
    const res = await get('/admin/v1/system/stats');
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(30);
    expect(new Set(res.body.days).size).toBe(30);
    expect([...res.body.days].sort()).toEqual(res.body.days);
    expect(res.body.events).toEqual(['play_limited_show']);
    expect(res.body.counts.map((c: any) => c.count).sort()).toEqual([2, 4]);
    expect(res.body.counts.find((c: any) => c.count === 4).day).toBe(res.body.days[29]);
    const bad = await h.api('GET', '/admin/v1/system/stats?days=0', admin.access_token);
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_argument']);
  });
});
