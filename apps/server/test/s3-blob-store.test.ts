/** S3BlobStore against a real S3 server (Swift's s3api, which checks signatures like AWS). */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHashOf } from '../src/storage/content-hash.js';
import { S3BlobStore, type S3Entry } from '../src/storage/s3-blob-store.js';
import type { S3Config } from '../src/storage/s3-config.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';

let cfg: S3Config;
let sut: S3BlobStore;

beforeAll(async () => {
  cfg = await s3ConfigFor(await testS3(), testBucket());
  sut = new S3BlobStore(cfg);
}, 90_000);
afterAll(() => sut?.client.destroy());

async function keys(store: S3BlobStore, prefix: 'blobs/' | 'tmp/'): Promise<S3Entry[]> {
  const out: S3Entry[] = [];
  for await (const page of store.list(prefix)) out.push(...page);
  return out;
}

const bytes = async (r: Readable) => Buffer.concat(await r.toArray());

describe(S3BlobStore.name, () => {
  it('puts, reads whole and ranged, tells what it has, deletes', async () => {
    const blob = await sut.put(Readable.from([Buffer.from('hello '), Buffer.from('object storage')]));
    expect(blob).toEqual({ hash: await contentHashOf('hello object storage'), size: 20 });
    expect(await sut.has(blob.hash)).toBe(true);
    expect(await text(sut.read(blob.hash))).toBe('hello object storage');
    expect(await text(sut.read(blob.hash, { start: 6, end: 11 }))).toBe('object');
    expect((await keys(sut, 'blobs/')).map((e) => e.key)).toContain(`blobs/${blob.hash.slice(0, 2)}/${blob.hash.slice(2, 4)}/${blob.hash}`);
    expect(await keys(sut, 'tmp/')).toEqual([]);
    await sut.delete(blob.hash);
    expect(await sut.has(blob.hash)).toBe(false);
    await expect(bytes(sut.read(blob.hash))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('streams 12 MB as a multipart upload and stores the same content once', async () => {
    const data = randomBytes(12 * 1024 * 1024);
    const chunks = Array.from({ length: 48 }, (_, i) => data.subarray(i * 262_144, (i + 1) * 262_144));
    const before = (await keys(sut, 'blobs/')).length;
    const sent: string[] = [];
    const watched = new S3BlobStore(cfg);
    watched.client.middlewareStack.add((next, context) => (args) => (sent.push(context.commandName!), next(args)), { step: 'initialize' });
    const a = await watched.put(Readable.from(chunks));
    // 12 MB in 8 MiB parts: two parts to the temporary key, one server-side copy.
    expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(2);
    expect(sent).toContain('CopyObjectCommand');
    expect(sent).not.toContain('PutObjectCommand');
    watched.client.destroy();
    const b = await sut.put(Readable.from([data]));
    expect(a).toEqual({ hash: await contentHashOf(data), size: data.length });
    expect(b).toEqual(a);
    expect((await keys(sut, 'blobs/')).length).toBe(before + 1);
    expect(await keys(sut, 'tmp/')).toEqual([]);
    expect((await bytes(sut.read(a.hash))).equals(data)).toBe(true);
    expect((await bytes(sut.read(a.hash, { start: 9_000_000, end: 9_000_099 }))).equals(data.subarray(9_000_000, 9_000_100))).toBe(true);
  });

  it('copies past the single-copy limit in parts', async () => {
    const small = new S3BlobStore(cfg, { partSize: 5 * 1024 * 1024, copyLimit: 1024, copyPartSize: 5 * 1024 * 1024 });
    const data = randomBytes(11 * 1024 * 1024);
    const blob = await small.put(Readable.from([data]));
    const head = await small.client.send(new HeadObjectCommand({ Bucket: cfg.bucket, Key: small.keyOf(blob.hash) }));
    // A multipart object's ETag ends in its part count: three copied parts.
    expect(head.ETag).toMatch(/-3"$/);
    expect((await bytes(small.read(blob.hash))).equals(data)).toBe(true);
    small.client.destroy();
  });

  it('leaves no object and no temporary key when the source fails', async () => {
    const before = await keys(sut, 'blobs/');
    async function* failing() {
      yield randomBytes(6 * 1024 * 1024);
      yield randomBytes(6 * 1024 * 1024);
      throw new Error('the source broke');
    }
    await expect(sut.put(Readable.from(failing()))).rejects.toThrow('the source broke');
    expect(await keys(sut, 'blobs/')).toEqual(before);
    expect(await keys(sut, 'tmp/')).toEqual([]);
  });

  it('adopts a local file under its hash and removes the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haul-s3-adopt-'));
    try {
      const data = randomBytes(100_000);
      const path = join(dir, 'done');
      writeFileSync(path, data);
      const hash = await contentHashOf(data);
      await sut.adopt(path, hash);
      expect(existsSync(path)).toBe(false);
      expect((await bytes(sut.read(hash))).equals(data)).toBe(true);
      expect(() => sut.keyOf('../../etc/passwd')).toThrow('not a content hash');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused with a wrong secret, storing nothing', async () => {
    const wrong = new S3BlobStore({ ...cfg, secretAccessKey: 'not-the-secret' });
    const before = await keys(sut, 'blobs/');
    const err = await wrong.put(Readable.from([Buffer.from('never stored')])).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'SignatureDoesNotMatch' });
    expect(await keys(sut, 'blobs/')).toEqual(before);
    expect(await keys(sut, 'tmp/')).toEqual([]);
    wrong.client.destroy();
  });

  it('serves a presigned GET, with the asked headers, and refuses a tampered one', async () => {
    const blob = await sut.put(Readable.from([Buffer.from('presigned bytes')]));
    const url = await sut.presignedGet(blob.hash, 300, { contentDisposition: 'attachment; filename="a.txt"', contentType: 'text/plain' });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('presigned bytes');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="a.txt"');
    const ranged = await fetch(url, { headers: { range: 'bytes=0-8' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('presigned');
    const tampered = new URL(url);
    tampered.searchParams.set('response-content-type', 'text/html');
    expect((await fetch(tampered)).status).toBe(403);
    const sig = new URL(url);
    sig.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect((await fetch(sig)).status).toBe(403);
  });
});
