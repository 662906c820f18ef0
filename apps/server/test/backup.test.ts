/**
 * `haul-admin backup` and `restore` against the real server (the bundle, in a child process), on SQLite or, in the
 * PostgreSQL pass, PostgreSQL (pg_dump and pg_restore): a drive backed up while uploads go on, restored into a fresh
 * data folder and database, served again and compared file by file with the original; a second backup into the same
 * folder copies only new blobs and deletes nothing; restore refuses a target with accounts. Then, in-process, a blob
 * lost before it is copied, and a damaged one in the backup.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveDatabase } from '../src/backup/database-copy.js';
import { lastBackup, type BackupManifest } from '../src/backup/manifest.js';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { ADMIN_MAIN, database, HaulProcess, sha256Of, until } from './child-server.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'haul-backup-'));
const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

/** Runs haul-admin from the bundle with an install's settings; resolves with its exit code and output, whatever it is. */
async function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [ADMIN_MAIN, ...args], { env: { ...process.env, HAUL_CONFIG: '', ...env, HAUL_LOG_LEVEL: 'silent' }, maxBuffer: 16 * MiB });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The settings of a server (and haul-admin) on `dataDir` and `db`, its blobs in the data folder. */
const installEnv = (dataDir: string, db: { url: string | null }) => ({
  HAUL_DATA_DIR: dataDir,
  DATABASE_URL: db.url ?? '',
  HAUL_BLOB_STORE: 'local',
  HAUL_LOG_LEVEL: 'warn',
  HAUL_WEB_DIR: join(dataDir, 'no-web'),
});

/** Uploads `content` as the web app does (hash declared, proof when asked, tus PATCHes); resolves once it is a file. */
async function upload(h: HaulProcess, token: string, name: string, content: Buffer, parentId = ''): Promise<{ id: string; hash: string }> {
  const hash = await contentHashOf(content);
  const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(content.length), hash, parent_id: parentId };
  const created = (await createProven(async (b) => ({ body: await h.call('POST', '/drive/v1/files', token, b) }), body, content)).body;
  if (!created.resumable) return { id: created.file.id, hash };
  const url = created.resumable.params.upload_url as string;
  const headers = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream' };
  for (let at = 0; at < content.length || at === 0; at += 8 * MiB) {
    const res = await fetch(url, { method: 'PATCH', headers: { ...headers, 'upload-offset': String(at) }, body: new Uint8Array(content.subarray(at, at + 8 * MiB)) });
    expect(res.status, await res.text()).toBe(204);
    if (content.length === 0) break;
  }
  const task = await until(
    () => h.call('GET', `/drive/v1/tasks/${created.task.id}`, token),
    (t) => t.phase !== 'PHASE_TYPE_RUNNING' && t.phase !== 'PHASE_TYPE_PENDING',
  );
  expect(task, task.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
  return { id: task.file_id, hash };
}

interface Listed {
  path: string;
  id: string;
  size: string;
  hash: string;
}

/** Every file of the account, by path, folders walked. */
async function listAll(h: HaulProcess, token: string, parentId = '', prefix = ''): Promise<Map<string, Listed>> {
  const out = new Map<string, Listed>();
  let pageToken = '';
  do {
    const page = await h.call('GET', `/drive/v1/files?parent_id=${parentId}&limit=500${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`, token);
    for (const f of page.files as { id: string; name: string; kind: string; size: string; hash: string }[]) {
      const path = `${prefix}${f.name}`;
      if (f.kind === 'drive#folder') for (const [p, g] of await listAll(h, token, f.id, `${path}/`)) out.set(p, g);
      else out.set(path, { path, id: f.id, size: f.size, hash: f.hash });
    }
    pageToken = page.next_page_token;
  } while (pageToken);
  return out;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
const listedBlobs = (dir: string) => new Set(readFileSync(join(dir, 'blobs.txt'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]!));
const blobFile = (root: string, hash: string) => join(root, hash.slice(0, 2), hash.slice(2, 4), hash);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('haul-admin backup and restore of a running drive', { timeout: 300_000 }, () => {
  const email = 'backup-owner@example.com';
  const password = 'correct horse';
  const dataA = join(work, 'data-a');
  const dataB = join(work, 'data-b');
  const backupDir = join(work, 'backup');
  let original: HaulProcess;
  let envA: Record<string, string>;
  let envB: Record<string, string>;
  let token = '';
  /** Bytes of every file uploaded, by path. */
  const contents = new Map<string, Buffer>();

  beforeAll(async () => {
    const dbA = await database();
    const dbB = await database();
    cleanups.push(dbA.drop, dbB.drop);
    envA = installEnv(dataA, dbA);
    envB = installEnv(dataB, dbB);
    original = new HaulProcess(await freeLoopbackPort(), { ...envA });
    cleanups.push(async () => void (original.child && (await original.stop())));
    await original.start();
    token = (await original.call('POST', '/v1/auth/signup', undefined, { email, password })).access_token;
    const folder = (await original.call('POST', '/drive/v1/files', token, { kind: 'drive#folder', name: 'Photos', parent_id: '' })).file.id as string;
    const same = randomBytes(300_000);
    const files: [string, Buffer, string][] = [
      ['notes.txt', Buffer.from('first notes\n'), ''],
      ['empty.txt', Buffer.alloc(0), ''],
      ['same-1.bin', same, ''],
      // Identical content: one blob, two files.
      ['same-2.bin', same, ''],
      ['Photos/beach.jpg', randomBytes(700_000), folder],
      ['film.mkv', randomBytes(24 * MiB + 4321), ''],
    ];
    for (const [path, bytes, parent] of files) {
      await upload(original, token, path.split('/').pop()!, bytes, parent);
      contents.set(path, bytes);
    }
  });

  it('backs up while uploads go on, restores into a fresh install that serves every file of the snapshot', async () => {
    // Uploads keep arriving all through the backup.
    let uploading = true;
    const finishedAt: number[] = [];
    const background = (async () => {
      for (let i = 0; uploading; i++) {
        const bytes = randomBytes(64 * 1024 + i * 997);
        await upload(original, token, `during-${i}.bin`, bytes);
        contents.set(`during-${i}.bin`, bytes);
        finishedAt.push(Date.now());
      }
    })();
    await until(async () => finishedAt.length, (n) => n >= 2);
    const before = await listAll(original, token);
    const started = Date.now();
    const first = await admin(envA, 'backup', backupDir);
    const ended = Date.now();
    await until(async () => finishedAt.filter((t) => t > ended).length, (n) => n >= 1);
    uploading = false;
    await background;
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^database: SQLite online backup|^database: pg_dump/m);
    expect(first.stdout).toMatch(/backup done in .* s: database .* \(1 account\)/);
    // The backup did run while files were being placed.
    expect(finishedAt.filter((t) => t > started && t < ended).length).toBeGreaterThan(0);

    const manifest = readManifest(backupDir);
    expect(manifest).toMatchObject({ format: 1, complete: true, database: { kind: envA.DATABASE_URL ? 'postgres' : 'sqlite', users: 1 }, blob_store: { kind: 'local' } });
    expect(manifest.blobs.missing).toEqual([]);
    // Every blob the snapshot names is in the backup, with its size; the identical files share one.
    const snapshotBlobs = listedBlobs(backupDir);
    expect(snapshotBlobs.size).toBe(manifest.blobs.count);
    for (const h of snapshotBlobs) expect(statSync(blobFile(join(backupDir, 'blobs'), h)).size).toBe(statSync(blobFile(join(dataA, 'blobs'), h)).size);
    expect(manifest.blobs.copied).toBe(snapshotBlobs.size);
    // The admin area's record of it, in the live database.
    const live = await liveDatabase({ databaseUrl: envA.DATABASE_URL || null, dataDir: dataA });
    try {
      expect(await lastBackup(live)).toMatchObject({ taken_at: manifest.taken_at, complete: true, database_bytes: manifest.database.bytes, blob_count: manifest.blobs.count, blob_bytes: manifest.blobs.bytes });
    } finally {
      await live.destroy();
    }

    // Restored into a fresh data folder (and database), then served.
    const restore = await admin(envB, 'restore', backupDir, '--verify');
    expect(restore.code, restore.stderr + restore.stdout).toBe(0);
    expect(restore.stdout).toMatch(/restore done in .* s/);
    const restored = new HaulProcess(await freeLoopbackPort(), { ...envB });
    cleanups.push(async () => void (restored.child && (await restored.stop())));
    await restored.start();
    const signedIn = (await restored.call('POST', '/v1/auth/signin', undefined, { username: email, password })).access_token as string;
    const after = await listAll(original, token);
    const got = await listAll(restored, signedIn);
    // Everything that existed before the backup started, equal; nothing that never existed.
    for (const [path, f] of before) expect(got.get(path), path).toMatchObject({ size: f.size, hash: f.hash });
    for (const [path, f] of got) expect(after.get(path), path).toMatchObject({ size: f.size, hash: f.hash });
    expect(got.size).toBeGreaterThanOrEqual(before.size);
    // Files placed after the snapshot are not in it.
    expect(got.size).toBeLessThan(after.size);
    expect([...got.keys()]).toEqual(expect.arrayContaining(['notes.txt', 'empty.txt', 'same-1.bin', 'same-2.bin', 'Photos/beach.jpg', 'film.mkv']));
    // The identical files share one blob; every restored file's blob is one the snapshot listed.
    expect(got.get('same-1.bin')!.hash).toBe(got.get('same-2.bin')!.hash);
    for (const f of got.values()) expect(snapshotBlobs.has(f.hash), f.path).toBe(true);
    // And the bytes it serves are the ones uploaded.
    for (const [path, f] of got) {
      const file = await restored.call('GET', `/drive/v1/files/${f.id}`, signedIn);
      expect(await sha256Of(file.web_content_link), path).toBe(sha256(contents.get(path)!));
    }

    // Restore refuses a target that has an account.
    const again = await admin(envB, 'restore', backupDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has 1 account: restore only onto a fresh install/);
    await restored.stop();
  });

  it('backs up into the same folder again: only the new blobs are copied, none of the earlier ones is touched or deleted', async () => {
    const earlier = listedBlobs(backupDir);
    const stamps = new Map([...earlier].map((h) => [h, statSync(blobFile(join(backupDir, 'blobs'), h)).mtimeMs]));
    // A new file, and one gone for good (its blob is no longer in the snapshot, and stays in the backup).
    const added = randomBytes(200_000);
    await upload(original, token, 'added-later.bin', added);
    const gone = (await listAll(original, token)).get('Photos/beach.jpg')!;
    await original.call('POST', '/drive/v1/files:batchDelete', token, { ids: [gone.id] });

    const second = await admin(envA, 'backup', backupDir);
    expect(second.code, second.stderr).toBe(0);
    const manifest = readManifest(backupDir);
    const now = listedBlobs(backupDir);
    const fresh = [...now].filter((h) => !earlier.has(h));
    expect(fresh).toContain(await contentHashOf(added));
    expect(now.has(gone.hash)).toBe(false);
    expect(manifest.blobs).toMatchObject({ copied: fresh.length, already_there: now.size - fresh.length, missing: [] });
    expect(second.stdout).toMatch(new RegExp(`${fresh.length} copied \\(.*\\), ${now.size - fresh.length} already there`));
    for (const [h, mtime] of stamps) expect(statSync(blobFile(join(backupDir, 'blobs'), h)).mtimeMs, h).toBe(mtime);
    expect(existsSync(blobFile(join(backupDir, 'blobs'), gone.hash))).toBe(true);
    expect(readdirSync(backupDir).sort()).toEqual(['blobs', 'blobs.txt', manifest.database.file, 'manifest.json'].sort());
  });

  it('restores onto an install that has started but has no account yet, once it is stopped', async () => {
    const db = await database();
    cleanups.push(db.drop);
    const env = installEnv(join(work, 'data-c'), db);
    const fresh = new HaulProcess(await freeLoopbackPort(), { ...env });
    cleanups.push(async () => void (fresh.child && (await fresh.stop())));
    await fresh.start();
    if (!db.url) {
      const busy = await admin(env, 'restore', backupDir);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/is open in another process: stop Haul before restoring/);
    }
    await fresh.stop();
    if (db.url) {
      // A table the backup does not hold would outlive the restore: refused, named.
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        await c.query('create table stray_notes (x int)');
        const stray = await admin(env, 'restore', backupDir);
        expect(stray.code).toBe(1);
        expect(stray.stderr).toMatch(/holds tables this backup does not \(stray_notes\)/);
        await c.query('drop table stray_notes');
      } finally {
        await c.end();
      }
    }
    const r = await admin(env, 'restore', backupDir);
    expect(r.code, r.stderr).toBe(0);
    await fresh.start();
    const t = (await fresh.call('POST', '/v1/auth/signin', undefined, { username: email, password })).access_token as string;
    // The second backup was taken with nothing under way: the restored drive is the original as it is now.
    const hashes = (m: Map<string, Listed>) => new Map([...m].map(([p, f]) => [p, `${f.size} ${f.hash}`]));
    expect(hashes(await listAll(fresh, t))).toEqual(hashes(await listAll(original, token)));
    await fresh.stop();
  });

  it('answers a usage error with exit 2 and refuses a folder that holds something else', async () => {
    const other = mkdtempSync(join(work, 'other-'));
    writeFileSync(join(other, 'holiday.txt'), 'not a backup');
    // Each is refused before anything is written, so the four processes run at once.
    const [bare, unknown, r, inside] = await Promise.all([
      admin(envA, 'backup'),
      admin(envA, 'restore', backupDir, '--frobnicate'),
      admin(envA, 'backup', other),
      admin(envA, 'backup', join(dataA, 'backups')),
    ]);
    expect(bare.code).toBe(2);
    expect(unknown.code).toBe(2);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/holds other files \(holiday.txt\) and no Haul backup/);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/is in the data folder/);
  });
});

describe('haul-admin backup and restore when blobs are lost or damaged', { timeout: 120_000 }, () => {
  let h: TestHaul;
  let env: Record<string, string>;
  const lost = 'e'.repeat(64);
  const dir = join(work, 'lossy');

  beforeAll(async () => {
    h = await startTestHaul({ blobStore: 'local', s3: null });
    cleanups.push(() => h.destroy());
    env = installEnv(h.dataDir, { url: h.ctx.config.databaseUrl });
    const t = await h.signUp();
    await h.putFile(t, '', 'kept.txt', 'kept bytes');
    // A file whose blob is gone from the store (deleted after the snapshot, or lost): named, never a crash.
    await h.ctx.db.insertInto('blobs').values({ hash: lost, size: 10, cid: '', ref_count: 1, created_at: 1, updated_at: 1 }).execute();
  });

  it('copies the rest, names the missing blob and fails; restore stops before the database unless told to go on', async () => {
    const r = await admin(env, 'backup', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`ERROR: blob ${lost} is referred to by the snapshot and was not in`);
    expect(r.stdout).toMatch(/backup INCOMPLETE/);
    expect(readManifest(dir)).toMatchObject({ complete: false, blobs: { count: 2, copied: 1, missing: [lost] } });

    const target = await database();
    cleanups.push(target.drop);
    const envT = installEnv(mkdtempSync(join(work, 'target-')), target);
    const stopped = await admin(envT, 'restore', dir);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`ERROR: blob ${lost} is missing`);
    expect(stopped.stdout).toMatch(/restore STOPPED: 1 of 2 blobs missing or damaged .* the database was not restored/);
    expect(existsSync(join(envT.HAUL_DATA_DIR, 'haul.db'))).toBe(false);
    // Run again as it is, with leave to go on.
    const forced = await admin(envT, 'restore', dir, '--allow-missing');
    expect(forced.code).toBe(1);
    expect(forced.stdout).toMatch(/restore done .* 1 missing or damaged/);
  });

  it('finds a damaged blob in the backup by its hash with --verify', async () => {
    const kept = [...listedBlobs(dir)].find((x) => x !== lost)!;
    const path = blobFile(join(dir, 'blobs'), kept);
    const bytes = readFileSync(path);
    bytes[0] = bytes[0]! ^ 0xff;
    writeFileSync(path, bytes);
    const target = await database();
    cleanups.push(target.drop);
    const into = mkdtempSync(join(work, 'target-'));
    const r = await admin(installEnv(into, target), 'restore', dir, '--verify');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`ERROR: blob ${kept} is damaged: its bytes hash to`);
    // Its copy is not left in the data folder, where a run after the backup is mended would take it as whole.
    expect(existsSync(blobFile(join(into, 'blobs'), kept))).toBe(false);
  });
});
