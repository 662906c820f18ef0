/**
 * kill -9 in the middle of an upload into S3: the real server (the bundle, a child process) keeps its blobs in a bucket
 * of the test Swift server. An upload that declared its hash gathers as a multipart upload at its content key; the
 * server is killed while a PATCH streams in, after it stored a part beyond what its hasher state covers. Started again,
 * the server offers the offset its state covers, the same upload resumes to completion with the right hash (the part
 * sent again replaces the one stored before the kill), and reconciliation leaves no multipart upload and no object but
 * the file's blob, also of a second upload that was abandoned while the server was down.
 * Runs in the S3 pass of scripts/test.mjs (HAUL_TEST_BLOB_STORE=s3).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, ListObjectsV2Command, ListPartsCommand, type S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { reconcileOrphans } from '../src/ops/reconcile.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { s3Client } from '../src/storage/s3-blob-store.js';
import type { S3Config } from '../src/storage/s3-config.js';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { crashTestEnv, crashTestFolder, HaulProcess, sha256Of, sleep, throttledProxy, tusSend, until } from './child-server.js';
import { startTestHaul } from './helper.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;
const SIZE = 48 * MiB;
/** The web app's chunk: two 8 MiB parts a PATCH. */
const CHUNK = 16 * MiB;
/** Bytes a second the proxy lets through towards the server: a part takes a second to arrive. */
const RATE = 8 * MiB;
const PART = 8 * MiB;

const { work, cleanups } = crashTestFolder('haul-s3-kill-');

/** Every unfinished multipart upload in the bucket, whatever its key. */
async function openUploads(client: S3Client, bucket: string) {
  return (await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? [];
}

/** The part numbers stored so far in the multipart upload at `key`. */
async function partsAt(client: S3Client, bucket: string, key: string): Promise<number[]> {
  const open = (await openUploads(client, bucket)).find((u) => u.Key === key);
  if (!open) return [];
  const res = await client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: open.UploadId }));
  return (res.Parts ?? []).map((p) => p.PartNumber!);
}

async function allKeys(client: S3Client, bucket: string): Promise<string[]> {
  return ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!);
}

const contentKey = (hash: string) => `blobs/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

describe('kill -9 during an upload into S3', { timeout: 240_000 }, () => {
  it('resumes the upload from what its hasher state covers, completes with the right hash, and reconciliation leaves no orphan parts or objects', async () => {
    if (process.env.HAUL_TEST_BLOB_STORE !== 's3') throw new Error('s3-kill.test.ts runs in the S3 pass: HAUL_TEST_BLOB_STORE=s3 (scripts/test.mjs sets it).');
    const dataDir = mkdtempSync(join(work, 'data-'));
    const haul = new HaulProcess(await freeLoopbackPort(), crashTestEnv(dataDir, { url: null }));
    cleanups.push(async () => {
      if (haul.child) await haul.crash();
    });
    const port = Number(new URL(haul.base).port);
    const proxy = await throttledProxy(port, RATE);
    cleanups.push(() => new Promise<void>((r) => proxy.server.close(() => r())));
    proxy.server.on('connection', (s) => cleanups.push(() => void s.destroy()));
    await haul.start();
    const cfg: S3Config = {
      endpoint: haul.env.HAUL_S3_ENDPOINT!,
      bucket: haul.env.HAUL_S3_BUCKET!,
      region: haul.env.HAUL_S3_REGION!,
      accessKeyId: haul.env.HAUL_S3_ACCESS_KEY_ID!,
      secretAccessKey: haul.env.HAUL_S3_SECRET_ACCESS_KEY!,
      forcePathStyle: true,
      presignedDownloads: false,
    };
    const client = s3Client(cfg);
    cleanups.push(() => client.destroy());

    const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 's3-kill@example.com', password: 'correct horse' });
    const create = async (name: string, content: Buffer) => {
      const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(content.length), hash: await contentHashOf(content), parent_id: '' };
      return (await createProven(async (b) => ({ body: await haul.call('POST', '/drive/v1/files', t.access_token, b) }), body, content)).body;
    };
    const content = randomBytes(SIZE);
    const hash = await contentHashOf(content);
    const created = await create('film.mkv', content);
    const key: string = created.resumable.params.key;
    const url = (created.resumable.params.upload_url as string).replace(haul.base, proxy.base);

    // A second upload, one chunk in, that its owner abandons while the server is down.
    const other = randomBytes(20 * MiB);
    const abandoned = await create('abandoned.bin', other);
    const sentOther = await fetch(abandoned.resumable.params.upload_url, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(other.subarray(0, CHUNK)),
    });
    expect(sentOther.status).toBe(204);
    expect(await partsAt(client, cfg.bucket, contentKey(await contentHashOf(other)))).toEqual([1, 2]);

    // First life: killed once a PATCH after the first stored its first part and not yet its second (an odd count).
    const firstPatches: number[] = [];
    const first = tusSend(url, t.access_token, content, CHUNK, firstPatches);
    const stored = await until(() => partsAt(client, cfg.bucket, contentKey(hash)), (parts) => parts.length >= 3 && parts.length % 2 === 1, 60_000);
    await haul.crash();
    expect((await first).ok).toBe(false);
    const n = stored.length;
    // What the hasher state covers: the PATCHes answered before the one that was killed.
    const covered = (n - 1) * PART;
    expect(firstPatches.at(-1)).toBe(covered);
    // The multipart upload sits at the content key, with the part the killed PATCH stored; nothing is complete there.
    expect(await partsAt(client, cfg.bucket, contentKey(hash))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(await allKeys(client, cfg.bucket)).not.toContain(contentKey(hash));

    // Meanwhile its owner's abandoned upload loses its row (as a cancel whose process died before forgetting the bytes).
    const { db } = await openDatabase({ databaseUrl: null, dataDir });
    try {
      await db.deleteFrom('uploads').where('id', '=', abandoned.resumable.params.key).execute();
    } finally {
      await db.destroy();
    }

    await haul.start();
    const head = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    // Not the parts stored: the killed PATCH's part is sent again.
    expect(Number(head.headers.get('upload-offset'))).toBe(covered);

    const secondPatches: number[] = [];
    const second = await tusSend(url, t.access_token, content, CHUNK, secondPatches);
    expect(second, second.error).toEqual({ ok: true });
    expect(secondPatches[0]).toBe(covered);
    const task = await until(
      () => haul.call('GET', `/drive/v1/tasks/${created.task.id}`, t.access_token),
      (x) => x.phase !== 'PHASE_TYPE_RUNNING',
    );
    expect(task, task.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
    const file = await haul.call('GET', `/drive/v1/files/${task.file_id}`, t.access_token);
    expect(file).toMatchObject({ name: 'film.mkv', size: String(SIZE), hash });
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
    expect(await haul.stop()).toBe(0);

    // Before reconciliation the abandoned upload's multipart upload and keys are still there.
    expect((await openUploads(client, cfg.bucket)).map((u) => u.Key)).toEqual([contentKey(await contentHashOf(other))]);
    expect((await allKeys(client, cfg.bucket)).filter((k) => k.startsWith('uploads/')).length).toBeGreaterThan(0);

    // Reconciliation over the same folder, database and bucket, with no grace period (the bucket's dates are whole
    // seconds, rounded up: wait past them).
    await sleep(1_500);
    const h = await startTestHaul({ dataDir, blobStore: 's3', s3: cfg });
    try {
      const removed = await reconcileOrphans(h.ctx, 0);
      expect(removed.uploads).toBeGreaterThanOrEqual(3);
      expect(await openUploads(client, cfg.bucket)).toEqual([]);
      expect(await allKeys(client, cfg.bucket)).toEqual([contentKey(hash)]);
      // The file's blob still reads whole.
      const sha = createHash('sha256');
      for await (const chunk of h.ctx.blobs.read(hash)) sha.update(chunk as Buffer);
      expect(sha.digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    } finally {
      await h.destroy();
    }
  });
});
