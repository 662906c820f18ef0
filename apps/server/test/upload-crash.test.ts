/**
 * kill -9 in the middle of a browser-style upload: the real server runs as a child process, a tus client sends a
 * 48 MiB file through a throttled loopback proxy, the server is killed while a PATCH is streaming, and started again
 * on the same data directory (and database). The same upload then resumes from the server's offset and completes
 * with the source's bytes; the file never shows in the listing before that.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { crashTestFolder, database, HaulProcess, sha256Of, sleep, throttledProxy, tusSend, until, watchListing } from './child-server.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;
const SIZE = 48 * MiB;
/** Bytes a second the proxy lets through towards the server: the file takes ~3 s, so the kill lands mid-way. */
const RATE = 16 * MiB;

const { work, cleanups } = crashTestFolder('haul-upload-crash-');

describe('kill -9 during an upload', { timeout: 180_000 }, () => {
  it('resumes the same upload after a restart, from the bytes the server kept, and completes with the right bytes', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const db = await database();
    const haul = new HaulProcess(await freeLoopbackPort(), {
      HAUL_DATA_DIR: dataDir,
      HAUL_LOG_LEVEL: 'warn',
      HAUL_WEB_DIR: join(dataDir, 'no-web'),
      DATABASE_URL: db.url ?? '',
    });
    cleanups.push(async () => {
      if (haul.child) await haul.crash();
      await db.drop();
    });
    const port = Number(new URL(haul.base).port);
    const proxy = await throttledProxy(port, RATE);
    cleanups.push(() => new Promise<void>((r) => proxy.server.close(() => r())));
    proxy.server.on('connection', (s) => cleanups.push(() => void s.destroy()));
    await haul.start();

    const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'upload-crash@example.com', password: 'correct horse' });
    const content = randomBytes(SIZE);
    const expected = { name: 'film.mkv', size: SIZE, hash: await contentHashOf(content) };
    const stopWatching = watchListing(haul, () => t.access_token, expected);
    const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: expected.name, size: String(SIZE), hash: expected.hash, parent_id: '' };
    const created = (await createProven(async (b) => ({ body: await haul.call('POST', '/drive/v1/files', t.access_token, b) }), body, content)).body;
    const key: string = created.resumable.params.key;
    const url = (created.resumable.params.upload_url as string).replace(haul.base, proxy.base);
    const onDisk = () => statSync(join(dataDir, 'uploads', key)).size;

    // First life: killed while a PATCH streams in (not between two), once the server holds about a third of the bytes.
    const firstPatches: number[] = [];
    const first = tusSend(url, t.access_token, content, 8 * MiB, firstPatches);
    const deadline = Date.now() + 60_000;
    for (let n = 0; n < 0.3 * SIZE || n % (8 * MiB) === 0; n = existsSync(join(dataDir, 'uploads', key)) ? onDisk() : 0) {
      if (Date.now() > deadline) throw new Error(`the upload did not get going: ${n} bytes on disk`);
      await sleep(10);
    }
    await haul.crash();
    const kept = onDisk();
    expect(kept).toBeGreaterThanOrEqual(0.2 * SIZE);
    expect(kept).toBeLessThanOrEqual(0.8 * SIZE);
    expect((await first).ok).toBe(false);

    // While it is down, the database holds the upload and no file for it.
    const { db: metadata } = await openDatabase({ databaseUrl: db.url, dataDir });
    try {
      expect(await metadata.selectFrom('files').select('id').where('name', '=', expected.name).execute()).toEqual([]);
      expect(await metadata.selectFrom('uploads').select('id').where('id', '=', key).execute()).toHaveLength(1);
    } finally {
      await metadata.destroy();
    }

    await haul.start();
    const listed = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token);
    expect(listed.files.map((f: { name: string }) => f.name)).not.toContain(expected.name);
    const head = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(0.2 * SIZE);
    expect(offset).toBeLessThanOrEqual(kept);

    // Second life: the same upload goes on from the server's offset.
    const secondPatches: number[] = [];
    const second = await tusSend(url, t.access_token, content, 8 * MiB, secondPatches);
    expect(second, second.error).toEqual({ ok: true });
    expect(secondPatches[0]).toBe(offset);
    const sentAfterRestart = SIZE - secondPatches[0]!;
    expect(sentAfterRestart).toBeLessThan(SIZE);

    const task = await until(
      () => haul.call('GET', `/drive/v1/tasks/${created.task.id}`, t.access_token),
      (x) => x.phase !== 'PHASE_TYPE_RUNNING',
    );
    expect(task, task.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
    const file = await haul.call('GET', `/drive/v1/files/${task.file_id}`, t.access_token);
    expect(file).toMatchObject({ name: expected.name, size: String(SIZE), hash: expected.hash });
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
    await sleep(300);
    const watched = await stopWatching();
    expect(watched.looks).toBeGreaterThan(10);
    expect(watched.partial).toEqual([]);
    const after = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token);
    expect(after.files.map((f: { name: string }) => f.name)).toEqual([expected.name]);
    // Nothing of the upload is left behind.
    expect(readdirSync(join(dataDir, 'uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);
  });
});
