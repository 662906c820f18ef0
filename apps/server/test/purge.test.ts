import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../src/files/trash.service.js';
import { httpSourceKey, rememberSource, torrentSourceKey } from '../src/offline/offline-sources.js';
import { PHASE } from '@haul/shared';
import { BATCH_RECORD_DAYS, expireFinishedTasks, FINISHED_UPLOAD_DAYS } from '../src/tasks/task-retention.js';
import { insertTask } from '../src/tasks/tasks.repository.js';
import { blobExists, ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

describe('trash retention', () => {
  let h: TestHaul;
  const clock = new ManualClock();
  beforeAll(async () => {
    h = await startTestHaul({ trashRetentionDays: 7, accessTokenTtlSeconds: 365 * 86400 }, clock);
  });
  afterAll(() => h.destroy());

  it('purges trash past the retention period, frees its storage and removes unreferenced blob bytes', async () => {
    const t = await h.signUp();
    const folder = await mkdir(h, t.access_token, 'Old');
    const doomed = await h.putFile(t, folder, 'doomed.bin', 'd'.repeat(3000));
    const shared = await h.putFile(t, folder, 'shared.bin', 's'.repeat(100));
    const keeper = await h.putFile(t, '', 'keeper.bin', 's'.repeat(100)); // same bytes as shared.bin
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [folder] });

    clock.advance(6 * 86_400_000);
    expect((await purgeExpired(h.ctx)).files).toBe(0);
    expect((await h.api('GET', `/drive/v1/files/${folder}`, t.access_token)).status).toBe(200);

    clock.advance(2 * 86_400_000);
    expect((await purgeExpired(h.ctx)).files).toBe(3);
    expect((await h.api('GET', `/drive/v1/files/${folder}`, t.access_token)).status).toBe(404);
    expect((await h.api('GET', '/drive/v1/about', t.access_token)).body.quota.usage).toBe('100');

    // Sources fetched before, as cloud downloads remember them: two links and a torrent's .torrent (stored without a
    // blob row of its own).
    const meta = await h.ctx.blobs.put(Readable.from([Buffer.from('d4:infod4:name1:xee')]));
    const source = (hash: string) => ({ hash, size: 1, name: 'x', mimeType: '' });
    await rememberSource(h.ctx, httpSourceKey('http://origin.test/doomed.bin', 'etag-1'), source(doomed.hash));
    await rememberSource(h.ctx, httpSourceKey('http://origin.test/shared.bin', 'etag-2'), source(shared.hash));
    await rememberSource(h.ctx, torrentSourceKey('ab'.repeat(20), 'torrent'), source(meta.hash));
    const sources = async () => (await h.ctx.db.selectFrom('offline_sources').select('hash').orderBy('source_key').execute()).map((r) => r.hash);

    // Unreferenced bytes go after a grace period, and the source that led to them with them; bytes another file still
    // uses stay, and so do their sources.
    clock.advance(11 * 60_000);
    const r = await purgeExpired(h.ctx);
    expect(r.blobs).toBe(1);
    expect(await blobExists(h, doomed.hash)).toBe(false);
    expect(await blobExists(h, shared.hash)).toBe(true);
    expect(keeper.hash).toBe(shared.hash);
    expect(await sources()).toEqual([meta.hash, shared.hash]);
  });
  it('removes batch records after a day and finished uploads after 30 days; cloud downloads and running work stay', async () => {
    await expireFinishedTasks(h.ctx.db, clock.now()); // what the test above left (its batch_trash record)
    const t = await h.signUp();
    const file = await h.putFile(t, '', 'starred.bin', 'k'.repeat(10));
    const star = (await h.api('POST', '/drive/v1/files:star', t.access_token, { ids: [file.id] })).body.task_id as string;
    const made = (type: string, phase: string) => insertTask(h.ctx.db, { userId: t.sub, type, phase, name: type }, clock.now());
    const uploaded = await made('upload', PHASE.COMPLETE);
    const failedUpload = await made('upload', PHASE.ERROR);
    const uploading = await made('upload', PHASE.RUNNING);
    const fetched = await made('offline', PHASE.COMPLETE);
    const unpacked = await made('decompress', PHASE.ERROR);
    const left = async () => {
      const rows = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).execute();
      const ids = new Set(rows.map((r) => r.id));
      return { star: ids.has(star), uploaded: ids.has(uploaded), failedUpload: ids.has(failedUpload), uploading: ids.has(uploading), fetched: ids.has(fetched), unpacked: ids.has(unpacked) };
    };
    const all = { star: true, uploaded: true, failedUpload: true, uploading: true, fetched: true, unpacked: true };
    expect(await left()).toEqual(all);

    clock.advance(BATCH_RECORD_DAYS * 86_400_000 - 60_000);
    expect(await expireFinishedTasks(h.ctx.db, clock.now())).toBe(0);
    clock.advance(2 * 60_000);
    expect(await expireFinishedTasks(h.ctx.db, clock.now())).toBe(1);
    expect(await left()).toEqual({ ...all, star: false });
    expect((await h.api('GET', `/drive/v1/tasks/${star}`, t.access_token)).status).toBe(404);

    // A task that finished late counts from its end: the upload changed a day ago stays when its 30 days are up.
    await h.ctx.db.updateTable('tasks').set({ updated_time: clock.now() }).where('id', '=', failedUpload).execute();
    clock.advance(FINISHED_UPLOAD_DAYS * 86_400_000 - BATCH_RECORD_DAYS * 86_400_000);
    expect(await expireFinishedTasks(h.ctx.db, clock.now())).toBe(1);
    expect(await left()).toEqual({ ...all, star: false, uploaded: false });
    clock.advance(BATCH_RECORD_DAYS * 86_400_000 + 60_000);
    await expireFinishedTasks(h.ctx.db, clock.now());
    expect(await left()).toEqual({ ...all, star: false, uploaded: false, failedUpload: false });
  });
});
