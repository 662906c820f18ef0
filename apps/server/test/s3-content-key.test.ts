/**
 * Uploads that declare their hash gather as a multipart upload at their content key (uploads/s3-upload-store.ts),
 * against the test Swift server: completed there only when the bytes match the name, so finishing copies nothing; bytes
 * that do not match leave nothing at the key; content stored already keeps its blob and the parts are dropped.
 * Runs in the S3 pass of scripts/test.mjs (HAUL_TEST_BLOB_STORE=s3); the kill -9 case is s3-kill.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { S3BlobStore } from '../src/storage/s3-blob-store.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;

describe('uploads gathered at their content key', { timeout: 120_000 }, () => {
  let h: TestHaul;
  let t: TokenResponse;
  let base: string;
  beforeAll(async () => {
    if (process.env.HAUL_TEST_BLOB_STORE !== 's3') throw new Error('s3-content-key.test.ts runs in the S3 pass: HAUL_TEST_BLOB_STORE=s3 (scripts/test.mjs sets it).');
    h = await startTestHaul();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    t = await h.signUp();
  }, 180_000);
  afterAll(() => h.destroy());

  const blobs = () => h.ctx.blobs as S3BlobStore;
  const keyOf = (hash: string) => blobs().keyOf(hash);
  const openUploads = async () => (await blobs().client.send(new ListMultipartUploadsCommand({ Bucket: blobs().bucket }))).Uploads?.map((u) => u.Key) ?? [];
  const keys = async (prefix: string) => (await blobs().client.send(new ListObjectsV2Command({ Bucket: blobs().bucket, Prefix: prefix }))).Contents?.map((o) => o.Key) ?? [];
  const lastModified = async (key: string) => (await blobs().client.send(new HeadObjectCommand({ Bucket: blobs().bucket, Key: key }))).LastModified?.getTime();
  const create = async (name: string, size: number, hash: string, proofOf: Buffer) => {
    const res = await createProven((b) => h.api('POST', '/drive/v1/files', t.access_token, b), { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name, size: String(size), hash }, proofOf);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.resumable?.params.key as string, taskId: res.body.task.id as string, url: `${base}/drive/v1/uploads/${res.body.resumable?.params.key}`, speed: !res.body.resumable };
  };
  const patch = (url: string, offset: number, body: Buffer) =>
    fetch(url, { method: 'PATCH', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
  const sendAll = async (url: string, content: Buffer, chunk: number) => {
    let last: Response | null = null;
    for (let at = 0; at < content.length; at += chunk) last = await patch(url, at, content.subarray(at, at + chunk));
    return last!;
  };
  const task = async (id: string) => (await h.api('GET', `/drive/v1/tasks/${id}`, t.access_token)).body;
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('gathers the parts at the content key, completes them there once the hash matches, and leaves nothing under uploads/ or tmp/', async () => {
    const content = randomBytes(21 * MiB + 777);
    const hash = await contentHashOf(content);
    const up = await create('named.bin', content.length, hash, content);
    // 16 MiB, then a tail under the 5 MiB minimum, then the rest.
    expect((await patch(up.url, 0, content.subarray(0, 16 * MiB))).status).toBe(204);
    expect(await openUploads()).toEqual([keyOf(hash)]);
    expect(await keys('blobs/')).toEqual([]);
    expect((await patch(up.url, 16 * MiB, content.subarray(16 * MiB, 18 * MiB))).status).toBe(204);
    expect((await patch(up.url, 18 * MiB, content.subarray(18 * MiB))).status).toBe(204);
    const done = await task(up.taskId);
    expect(done.phase, done.message).toBe('PHASE_TYPE_COMPLETE');
    const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body;
    expect(file.hash).toBe(hash);
    expect(sha256(Buffer.from((await h.api('GET', file.web_content_link.replace('http://haul.test', ''))).raw))).toBe(sha256(content));
    expect(await openUploads()).toEqual([]);
    expect(await keys('uploads/')).toEqual([]);
    expect(await keys('tmp/')).toEqual([]);
    expect(await keys('blobs/')).toEqual([keyOf(hash)]);
  });

  it('leaves nothing at the declared key when the bytes are not what was declared', async () => {
    const declared = randomBytes(9 * MiB);
    const sent = randomBytes(9 * MiB);
    const hash = await contentHashOf(declared);
    const up = await create('lying.bin', declared.length, hash, declared);
    const last = await sendAll(up.url, sent, 8 * MiB);
    expect(last.status).toBe(400);
    expect(await last.json()).toMatchObject({ error: 'file_hash_mismatch' });
    expect((await task(up.taskId)).phase).toBe('PHASE_TYPE_ERROR');
    expect(await openUploads()).toEqual([]);
    expect(await keys(keyOf(hash))).toEqual([]);
    expect(await keys('uploads/')).toEqual([]);
  });

  it('keeps the stored blob when the content is there already, dropping the new parts', async () => {
    const content = randomBytes(6 * MiB);
    const hash = await contentHashOf(content);
    const first = await create('first.bin', content.length, hash, content);
    expect((await sendAll(first.url, content, 16 * MiB)).status).toBe(204);
    const before = await lastModified(keyOf(hash));
    // A wrong proof answer is no error: the bytes are simply sent again.
    const again = await create('again.bin', content.length, hash, randomBytes(content.length));
    expect(again.speed).toBe(false);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await sendAll(again.url, content, 16 * MiB)).status).toBe(204);
    const done = await task(again.taskId);
    expect(done.phase, done.message).toBe('PHASE_TYPE_COMPLETE');
    // The object was not written again (its date is the first upload's) and no multipart upload is left open.
    expect(await lastModified(keyOf(hash))).toBe(before);
    expect(await openUploads()).toEqual([]);
    expect(await keys('uploads/')).toEqual([]);
  });
});
