/**
 * tus uploads straight into S3 (uploads/s3-upload-store.ts), against the test Swift server: chunks become parts of a
 * multipart upload under uploads/, a tail under 5 MiB waits as a .part key, nothing touches the local disk, the
 * finished object is copied server-side to its content key; the states a crash leaves (every part there but the
 * multipart upload never completed, the hasher state lost) still finish with the right hash; what uploads that no
 * longer exist left in the bucket is reclaimed. Runs in the S3 pass of scripts/test.mjs (HAUL_TEST_BLOB_STORE=s3).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { Readable } from 'node:stream';
import { S3BlobStore } from '../src/storage/s3-blob-store.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { reconcileOrphans } from '../src/ops/reconcile.js';
import { HashingS3Store, UPLOAD_PREFIX } from '../src/uploads/s3-upload-store.js';
import { blobExists, startTestHaul, uploadLeftovers, type TestHaul } from './helper.js';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('tus uploads into S3 multipart uploads', { timeout: 60_000 }, () => {
  let h: TestHaul;
  let t: TokenResponse;
  let base: string;
  beforeAll(async () => {
    if (process.env.HAUL_TEST_BLOB_STORE !== 's3') throw new Error('s3-uploads.test.ts runs in the S3 pass: HAUL_TEST_BLOB_STORE=s3 (scripts/test.mjs sets it).');
    h = await startTestHaul();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  const store = () => h.ctx.uploads as HashingS3Store;
  const headers = () => ({ authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' });
  // No declared hash: such uploads gather under uploads/ (one that declares it gathers at its content key: s3-content-key.test.ts).
  const create = async (name: string, content: Buffer) => {
    const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name, size: String(content.length) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.resumable.params.key as string, taskId: res.body.task.id as string, url: `${base}/drive/v1/uploads/${res.body.resumable.params.key}` };
  };
  const patch = (url: string, offset: number, body: Buffer) =>
    fetch(url, { method: 'PATCH', headers: { ...headers(), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
  const head = (url: string) => fetch(url, { method: 'HEAD', headers: headers() });
  const fileOf = async (taskId: string) => {
    const task = (await h.api('GET', `/drive/v1/tasks/${taskId}`, t.access_token)).body;
    expect(task.phase, task.message).toBe('PHASE_TYPE_COMPLETE');
    return (await h.api('GET', `/drive/v1/files/${task.file_id}`, t.access_token)).body;
  };
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const downloaded = async (file: { web_content_link: string }) => Buffer.from((await h.api('GET', file.web_content_link.replace('http://haul.test', ''))).raw);

  it('is the store the server uses when blobs are in S3', () => {
    expect(h.ctx.uploads).toBeInstanceOf(HashingS3Store);
    expect(h.ctx.blobs).toBeInstanceOf(S3BlobStore);
  });

  it('gathers chunks as parts (a tail under 5 MiB waiting as a .part key), keeps nothing on local disk, and places the file from its content key', async () => {
    const content = randomBytes(13 * MiB + 4321);
    const up = await create('parts.bin', content);
    // 6 MiB (a part), then 1 MiB pieces (tails joined to the next chunk), then the rest.
    const cuts = [0, 6 * MiB, 7 * MiB, 8 * MiB, content.length];
    for (let i = 0; i < cuts.length - 1; i++) {
      const res = await patch(up.url, cuts[i]!, content.subarray(cuts[i], cuts[i + 1]));
      expect(res.status, await res.text()).toBe(204);
      if (i === 1) {
        const held = await uploadLeftovers(h);
        expect(held).toEqual(expect.arrayContaining([`${UPLOAD_PREFIX}${up.id}.info`, `${UPLOAD_PREFIX}${up.id}.b3`, `${UPLOAD_PREFIX}${up.id}.part`, `multipart ${UPLOAD_PREFIX}${up.id}`]));
        expect(Number((await head(up.url)).headers.get('upload-offset'))).toBe(7 * MiB);
      }
    }
    const file = await fileOf(up.taskId);
    expect(file).toMatchObject({ name: 'parts.bin', size: String(content.length), hash: await contentHashOf(content) });
    expect(sha256(await downloaded(file))).toBe(sha256(content));
    expect(await blobExists(h, file.hash)).toBe(true);
    expect(await uploadLeftovers(h)).toEqual([]);
    // Nothing was staged in the data folder between requests.
    expect(readdirSync(h.dataDir)).not.toContain('uploads');
  });

  it('finishes an upload whose every part arrived but whose multipart upload was never completed, hashing the object when no hasher state is left', async () => {
    const content = randomBytes(300 * KiB);
    const up = await create('never-completed.bin', content);
    // What a process killed after storing the last part leaves: the part, no completion, no hasher state.
    const meta = JSON.parse(JSON.stringify(await (store() as unknown as { getMetadata(id: string): Promise<{ 'upload-id': string }> }).getMetadata(up.id)));
    const blobs = h.ctx.blobs as S3BlobStore;
    await blobs.client.send(new UploadPartCommand({ Bucket: blobs.bucket, Key: `${UPLOAD_PREFIX}${up.id}`, UploadId: meta['upload-id'], PartNumber: 1, Body: content }));
    expect(await store().hashedUpTo(up.id)).toBe(0);
    // A tus client coming back asks for the offset: every byte is there, so the HEAD finishes the upload.
    const res = await head(up.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('upload-offset')).toBe(String(content.length));
    const file = await fileOf(up.taskId);
    expect(res.headers.get('haul-file-id')).toBe(file.id);
    expect(file.hash).toBe(await contentHashOf(content));
    expect(sha256(await downloaded(file))).toBe(sha256(content));
    expect(await uploadLeftovers(h)).toEqual([]);
  });

  it('reclaims the keys and multipart upload of an upload that no longer exists, and leaves a live one alone', async () => {
    const content = randomBytes(2 * MiB);
    const gone = await create('gone.bin', content);
    expect((await patch(gone.url, 0, content.subarray(0, MiB))).status).toBe(204);
    const live = await create('live.bin', content);
    expect((await patch(live.url, 0, content.subarray(0, MiB))).status).toBe(204);
    // A process died between removing the row and forgetting the bytes.
    await h.ctx.db.deleteFrom('uploads').where('id', '=', gone.id).execute();
    // The server's dates are whole seconds (rounded up): past them, a grace period of 0 takes everything that is old.
    await new Promise((r) => setTimeout(r, 1_500));
    const removed = await reconcileOrphans(h.ctx, 0);
    // .info, .part, .b3 and the multipart upload.
    expect(removed.uploads).toBe(4);
    const left = await uploadLeftovers(h);
    expect(left.filter((k) => k.includes(gone.id))).toEqual([]);
    expect(left.filter((k) => k.includes(live.id)).length).toBe(4);
    // The live one still completes.
    expect((await patch(live.url, MiB, content.subarray(MiB))).status).toBe(204);
    expect((await fileOf(live.taskId)).hash).toBe(await contentHashOf(content));
  });

  it('tells a repeated last PATCH that lands after the upload was finished and removed that it is gone, not a server error', async () => {
    const content = randomBytes(6 * MiB);
    const up = await create('gone.bin', content);
    expect((await patch(up.url, 0, content)).status).toBe(204);
    await fileOf(up.taskId);
    // What tus does for a PATCH that found the upload a moment before its finisher removed every key.
    const late = store().write(Readable.from([Buffer.alloc(0)]), up.id, content.length);
    await expect(late).rejects.toMatchObject({ status_code: 404 });
  });

  it('answers a tus termination by removing every key of the upload', async () => {
    const content = randomBytes(1 * MiB);
    const up = await create('terminated.bin', content);
    expect((await patch(up.url, 0, content.subarray(0, 100 * KiB))).status).toBe(204);
    const del = await fetch(up.url, { method: 'DELETE', headers: headers() });
    expect(del.status).toBe(204);
    expect((await uploadLeftovers(h)).filter((k) => k.includes(up.id))).toEqual([]);
    expect(readdirSync(join(h.dataDir))).not.toContain('uploads');
  });
});
