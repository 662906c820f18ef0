/** Reconciliation when blobs live in S3: stale temporary keys and blob objects nothing keeps go; the rest stays. */
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { reconcileOrphans } from '../src/ops/reconcile.js';
import { S3BlobStore } from '../src/storage/s3-blob-store.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';

describe('reconciliation in a bucket', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let store: S3BlobStore;

  beforeAll(async () => {
    h = await startTestHaul({ blobStore: 's3', s3: await s3ConfigFor(await testS3(), testBucket()) });
    t = await h.signUp();
    store = h.ctx.blobs as S3BlobStore;
  }, 90_000);
  afterAll(() => h?.destroy());

  it('removes stale tmp/ keys and rowless blobs once past the grace period, never a blob a file uses', async () => {
    const kept = await h.putFile(t, '', 'kept.txt', 'kept bytes');
    const orphan = await store.put(Readable.from([Buffer.from('no row names me')]));
    await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: 'tmp/abandoned', Body: 'half a write' }));
    await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: 'blobs/not-ours.txt', Body: 'left alone' }));

    // Within the grace period nothing is touched.
    expect(await reconcileOrphans(h.ctx)).toMatchObject({ blobs: 0, parts: 0 });
    expect(await store.has(orphan.hash)).toBe(true);

    // Swift rounds Last-Modified up to the next second: a grace below zero counts what was just written as old.
    expect(await reconcileOrphans(h.ctx, -5000)).toMatchObject({ blobs: 1, parts: 1 });
    expect(await store.has(orphan.hash)).toBe(false);
    expect(await store.has(kept.hash)).toBe(true);
    const left: string[] = [];
    for await (const page of store.list('tmp/')) left.push(...page.map((e) => e.key));
    for await (const page of store.list('blobs/')) left.push(...page.map((e) => e.key));
    expect(left.sort()).toEqual([store.keyOf(kept.hash), 'blobs/not-ours.txt'].sort());
  });
});
