/**
 * The storage page's breakdown: used space by kind of file (by extension, else MIME type) and the trash apart, adding
 * up to the storage use of GET about; each account sees only its own; and the free/premium comparison of the plan
 * cards answers the operator's settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKindOf } from '../src/about/storage-kinds.js';
import { startTestHaul, type TestHaul } from './helper.js';

describe('storage by kind', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  const bytes = (n: number) => Buffer.alloc(n, 1);

  it('names kinds by extension, else by MIME type', () => {
    expect(storageKindOf('.MKV', '')).toBe('video');
    expect(storageKindOf('', 'video/mp4')).toBe('video');
    expect(storageKindOf('.heic', '')).toBe('image');
    expect(storageKindOf('.flac', '')).toBe('audio');
    expect(storageKindOf('.docx', '')).toBe('document');
    expect(storageKindOf('', 'text/plain')).toBe('document');
    expect(storageKindOf('.gz', 'application/gzip')).toBe('archive');
    expect(storageKindOf('.7z', '')).toBe('archive');
    expect(storageKindOf('.bin', 'application/octet-stream')).toBe('other');
    expect(storageKindOf('', '')).toBe('other');
  });

  it('sums the sizes of known uploads by kind, with the trash apart, to the total of about', async () => {
    const tok = await h.signUp();
    const other = await h.signUp();
    await h.putFile(tok, '', 'clip.mp4', bytes(5000));
    await h.putFile(tok, '', 'movie.MKV', bytes(3000));
    await h.putFile(tok, '', 'photo.jpg', bytes(700));
    await h.putFile(tok, '', 'song.mp3', bytes(400));
    await h.putFile(tok, '', 'report.pdf', bytes(300));
    await h.putFile(tok, '', 'notes.txt', bytes(20));
    await h.putFile(tok, '', 'pack.zip', bytes(900));
    await h.putFile(tok, '', 'backup.tar.gz', bytes(100));
    await h.putFile(tok, '', 'data.bin', bytes(60));
    const gone = await h.putFile(tok, '', 'old.mp4', bytes(2500));
    await h.putFile(other, '', 'theirs.mp4', bytes(9999));
    expect((await h.api('POST', '/drive/v1/files:batchTrash', tok.access_token, { ids: [gone.id] })).status).toBe(200);

    const res = await h.api('GET', '/drive/v1/about/storage', tok.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kinds: [
        { kind: 'video', size: '8000', count: 2 },
        { kind: 'image', size: '700', count: 1 },
        { kind: 'audio', size: '400', count: 1 },
        { kind: 'document', size: '320', count: 2 },
        { kind: 'archive', size: '1000', count: 2 },
        { kind: 'other', size: '60', count: 1 },
      ],
      trash: { size: '2500', count: 1 },
      total: '12980',
    });
    const about = (await h.api('GET', '/drive/v1/about', tok.access_token)).body;
    expect(about.quota.usage).toBe(res.body.total);
    expect(about.quota.usage_in_trash).toBe(res.body.trash.size);
  });

  it('answers every kind, empty, for a new account, and only to a signed-in one', async () => {
    const tok = await h.signUp();
    const res = await h.api('GET', '/drive/v1/about/storage', tok.access_token);
    expect(res.body.kinds.map((k: any) => [k.kind, k.size, k.count])).toEqual(['video', 'image', 'audio', 'document', 'archive', 'other'].map((k) => [k, '0', 0]));
    expect(res.body.trash).toEqual({ size: '0', count: 0 });
    expect((await h.api('GET', '/drive/v1/about/storage')).status).toBe(401);
  });
});

describe('free and premium compared', () => {
  it("answers the operator's limits, and premium's, for a signed-in account", async () => {
    const h = await startTestHaul({
      dailyTaskLimit: 7,
      premiumDailyTaskLimit: 70,
      offlineMaxTaskBytes: 3 * 1024 ** 3,
      monthlyUploadBytes: 0,
      monthlyCloudDownloadBytes: 20 * 1024 ** 3,
      monthlyDownloadBytes: 0,
      dailyDownloadBytes: 1024 ** 3,
      freeMaxResolution: 720,
      decompressPremiumOnly: true,
      webdavPremiumOnly: false,
    });
    try {
      expect((await h.api('GET', '/vip/v1/plans/limits')).status).toBe(401);
      const tok = await h.signUp();
      const res = await h.api('GET', '/vip/v1/plans/limits', tok.access_token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        free: {
          daily_cloud_downloads: 7,
          cloud_download_max_size: String(3 * 1024 ** 3),
          monthly_upload_size: null,
          monthly_cloud_download_size: String(20 * 1024 ** 3),
          monthly_download_size: null,
          daily_download_size: String(1024 ** 3),
          max_video_resolution: 720,
          cloud_decompression: false,
          webdav: true,
        },
        premium: {
          daily_cloud_downloads: 70,
          cloud_download_max_size: null,
          monthly_upload_size: null,
          monthly_cloud_download_size: null,
          monthly_download_size: null,
          daily_download_size: null,
          max_video_resolution: 0,
          cloud_decompression: true,
          webdav: true,
        },
      });
    } finally {
      await h.destroy();
    }
  });
});
