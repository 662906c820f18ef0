/** HAUL_S3_PRESIGNED_DOWNLOADS: download links answer 302 to a short-lived presigned GET, after the same checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';

describe('presigned downloads', () => {
  let h: TestHaul;
  let alice: TokenResponse;
  let bob: TokenResponse;
  const clock = new ManualClock(Date.now());
  const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  let fileId: string;
  let link: string;
  const path = (url: string) => url.replace('http://haul.test', '');

  beforeAll(async () => {
    const s3 = { ...(await s3ConfigFor(await testS3(), testBucket())), presignedDownloads: true };
    h = await startTestHaul({ blobStore: 's3', s3, dailyDownloadBytes: 12_000 }, clock);
    alice = await h.signUp();
    bob = await h.signUp();
    fileId = (await h.putFile(alice, '', 'report <final>.html', content)).id;
    link = (await h.api('GET', `/drive/v1/files/${fileId}?usage=FETCH`, alice.access_token)).body.web_content_link;
  }, 90_000);
  afterAll(() => h?.destroy());

  it('redirects to the object, which serves the bytes as an opaque attachment', async () => {
    const res = await h.api('GET', path(link));
    expect(res.status).toBe(302);
    const location = res.headers['location'] as string;
    expect(location).toContain('X-Amz-Expires=300');
    const got = await fetch(location);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(content)).toBe(true);
    // Active content stays opaque, as when Haul streams it.
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    const part = await fetch(location, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(100, 200))).toBe(true);
  });

  it("refuses another account's link, a tampered link and another file's id, with no redirect", async () => {
    const forBob = new URL(link);
    forBob.searchParams.set('u', bob.sub);
    const otherId = new URL(link);
    const bobFile = (await h.putFile(bob, '', 'mine.txt', 'bob')).id;
    otherId.pathname = `/drive/v1/content/${bobFile}`;
    for (const url of [forBob, otherId]) {
      const res = await h.api('GET', `${url.pathname}${url.search}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('file_not_found');
      expect(res.headers['location']).toBeUndefined();
    }
  });

  it('charges the download allowance before redirecting, and refuses past it', async () => {
    // 5,000 bytes were sent above; 5,000 more fit in 12,000, the next 5,000 do not.
    expect((await h.api('GET', path(link))).status).toBe(302);
    const over = await h.api('GET', path(link));
    expect(over.status).toBe(403);
    expect(over.headers['location']).toBeUndefined();
    // A range is charged for what it asks: 100 bytes still fit.
    const ranged = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=0-99' } });
    expect(ranged.statusCode).toBe(302);
  });
});
