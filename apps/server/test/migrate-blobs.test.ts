import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { S3BlobStore } from '../src/storage/s3-blob-store.js';
import type { S3Config } from '../src/storage/s3-config.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';
import { ADMIN_MAIN } from './child-server.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;

describe('haul-admin migrate-blobs', () => {
  let cfg: S3Config;
  let bucket: S3BlobStore;
  let local: TestHaul;
  let onS3: TestHaul | null = null;
  let owner: TokenResponse;
  let dataDir: string;
  let databaseUrl: string | null;
  // Name → bytes of every file placed on the local store; one content is placed twice (one blob, two files).
  const files = new Map<string, Buffer>([
    ['notes.txt', Buffer.from('first notes\n')],
    ['empty.txt', Buffer.alloc(0)],
    ['photo.jpg', randomBytes(300_000)],
    // Past the 8 MiB part size: sent as a multipart upload.
    ['movie.mp4', randomBytes(20 * MiB + 12_345)],
  ]);
  files.set('notes copy.txt', files.get('notes.txt')!);
  const ids = new Map<string, string>();
  // A blob row whose bytes are nowhere: the command names it without failing.
  const lost = 'f'.repeat(64);

  const admin = (...args: string[]) =>
    run(process.execPath, [ADMIN_MAIN, 'migrate-blobs', ...args], {
      env: {
        ...process.env,
        HAUL_CONFIG: '',
        HAUL_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        HAUL_LOG_LEVEL: 'silent',
        HAUL_BLOB_STORE: 'local',
        HAUL_S3_ENDPOINT: cfg.endpoint!,
        HAUL_S3_BUCKET: cfg.bucket,
        HAUL_S3_REGION: cfg.region,
        HAUL_S3_ACCESS_KEY_ID: cfg.accessKeyId!,
        HAUL_S3_SECRET_ACCESS_KEY: cfg.secretAccessKey!,
      },
      maxBuffer: 16 * MiB,
    });
  const blobPath = (hash: string) => join(dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash);

  beforeAll(async () => {
    cfg = await s3ConfigFor(await testS3(), testBucket());
    bucket = new S3BlobStore(cfg);
    // The install being moved keeps its blobs in the data folder, whatever store the rest of the run uses.
    local = await startTestHaul({ blobStore: 'local', s3: null });
    dataDir = local.dataDir;
    databaseUrl = local.ctx.config.databaseUrl;
    owner = await local.signUp();
    for (const [name, bytes] of files) ids.set(name, (await local.putFile(owner, '', name, bytes)).id);
    await local.ctx.db.insertInto('blobs').values({ hash: lost, size: 10, cid: '', ref_count: 1, created_at: 1, updated_at: 1 }).execute();
    // Stopped, not destroyed: its data folder and database are the install that moves.
    await local.close();
  }, 180_000);

  afterAll(async () => {
    bucket?.client.destroy();
    await onS3?.destroy();
    // The first server's PostgreSQL database (the second server's destroy drops only the one it made itself).
    const base = process.env.HAUL_TEST_DATABASE_URL;
    if (base && databaseUrl) {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
      await c.end();
    }
  });

  it('names a damaged blob and exits non-zero while copying the rest; a second run copies only what is left', async () => {
    const photo = await contentHashOf(files.get('photo.jpg')!);
    const good = readFileSync(blobPath(photo));
    const bad = Buffer.from(good);
    bad[1000] = bad[1000]! ^ 0xff;
    writeFileSync(blobPath(photo), bad);

    const failed = await admin('--to', 's3').then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed!.stdout).toMatch(/1 failed/);
    expect(failed!.stdout).toContain(`FAILED`);
    expect(failed!.stdout).toMatch(new RegExp(`${photo}: the local file is damaged`));
    // The damaged blob never reached the bucket; every other one did.
    expect(await bucket.has(photo)).toBe(false);
    for (const [name, bytes] of files) if (name !== 'photo.jpg') expect(await bucket.has(await contentHashOf(bytes)), name).toBe(true);
    expect(failed!.stdout).toContain(`1 blobs the database refers to are in neither`);
    expect(failed!.stdout).toContain(lost);
    expect(readFileSync(blobPath(photo)).equals(bad)).toBe(true);

    writeFileSync(blobPath(photo), good);
    const second = await admin('--to', 's3');
    expect(second.stdout).toMatch(/1 copied .*, 3 already in the bucket, 0 failed/);
    expect(second.stdout).toContain('set HAUL_BLOB_STORE=s3');
    expect(await bucket.has(photo)).toBe(true);
  }, 180_000);

  it('skips everything on a further run, and reads every object back with --verify', async () => {
    const again = await admin('--to', 's3');
    expect(again.stdout).toMatch(/0 copied .*, 4 already in the bucket, 0 failed/);
    const verified = await admin('--to', 's3', '--verify');
    expect(verified.stdout).toMatch(/0 copied .*, 4 already in the bucket \(4 read back and verified\), 0 failed/);
    // Nothing local was deleted (Buffer.equals: vitest's deep equality walks a buffer byte by byte as keys).
    for (const [name, bytes] of files) expect(readFileSync(blobPath(await contentHashOf(bytes))).equals(bytes), name).toBe(true);
    await expect(admin('--to', 'disk')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/migrate-blobs needs --to s3/) });
  }, 180_000);

  it('serves every file with the same bytes once the install is restarted on S3', async () => {
    // The old folder out of the way: every byte must now come from the bucket.
    renameSync(join(dataDir, 'blobs'), join(dataDir, 'blobs-before-s3'));
    onS3 = await startTestHaul({ dataDir, databaseUrl, blobStore: 's3', s3: cfg });
    for (const [name, bytes] of files) {
      const file = await onS3.api('GET', `/drive/v1/files/${ids.get(name)}?usage=FETCH`, owner.access_token);
      expect(file.status, name).toBe(200);
      const res = await onS3.api('GET', file.body.web_content_link.replace('http://haul.test', ''));
      expect(res.status, name).toBe(200);
      expect(res.raw.equals(bytes), name).toBe(true);
    }
  }, 120_000);
});
