/**
 * Kill -9 at random moments while four tus-js-client uploads and two cloud downloads run at once: the real server in a
 * child process, killed again and again and started on the same data; the clients retry as they do in the field.
 * Afterwards every file is there exactly once with its bytes, nothing partial ever showed, and once the
 * reconciliation pass has run no file on disk is left that no row explains.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { buildHaul } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { reconcileOrphans } from '../src/ops/reconcile.js';
import { crashTestEnv, database, HaulProcess, sha256Of, sleep, slowOrigin, throttledProxy, until } from './child-server.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'haul-soak-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(work, { recursive: true, force: true });
});

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe('kill -9 again and again during uploads and downloads', { timeout: 240_000 }, () => {
  it('ends with every file once and right, nothing partial shown, and no orphan after reconciliation', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const db = await database();
    const env = crashTestEnv(dataDir, db);
    // Its log is kept: a failure (a time-out included) prints the server's last warnings, such as a stranded upload
    // it could not finish.
    const haul = new HaulProcess(await freeLoopbackPort(), env, { keepLog: true });
    onTestFailed(() => console.error(`the server's last warnings:\n${haul.log.filter((l) => /"level":(40|50|60)/.test(l)).slice(-15).join('\n')}`));
    cleanups.push(async () => {
      if (haul.child) await haul.crash();
      await db.drop();
    });
    // Uploads go through a throttled proxy, so each takes a few seconds and the kills land inside them.
    const proxy = await throttledProxy(Number(new URL(haul.base).port), 12 * MiB);
    cleanups.push(() => new Promise<void>((r) => proxy.server.close(() => r())));
    proxy.server.on('connection', (s) => cleanups.push(() => void s.destroy()));
    await haul.start();
    const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'soak@example.com', password: 'correct horse' });

    const uploads = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const content = randomBytes(6 * MiB + i * 4099);
        const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: `upload-${i}.bin`, size: String(content.length), hash: await contentHashOf(content), id: `soak-upload-${i}`.padEnd(24, 'x') };
        const created = (await createProven(async (b) => ({ body: await haul.call('POST', '/drive/v1/files', t.access_token, b) }), body, content)).body;
        return { name: `upload-${i}.bin`, content, url: created.resumable.params.upload_url.replace(haul.base, proxy.base) as string };
      }),
    );
    const downloads = await Promise.all(
      [0, 1].map(async (i) => {
        const content = randomBytes(8 * MiB + i);
        const { server } = slowOrigin(content, 3 * MiB);
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
        server.on('connection', (s) => cleanups.push(() => void s.destroy()));
        const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/download-${i}.bin`;
        const created = await haul.call('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
        return { name: `download-${i}.bin`, content, taskId: created.task.id as string };
      }),
    );
    const expected = new Map([...uploads, ...downloads].map((f) => [f.name, f.content]));

    // Clients that behave as in the field: tus-js-client retrying through restarts, from the server's offset.
    const sent = uploads.map(
      (u) =>
        new Promise<void>((resolve, reject) => {
          new tus.Upload(u.content, {
            uploadUrl: u.url,
            headers: { authorization: `Bearer ${t.access_token}` },
            chunkSize: 2 * MiB,
            // Retrying for as long as the test may run: on a loaded machine five restarts can keep the server away
            // for over a minute, with no byte moving in between.
            retryDelays: Array(480).fill(500),
            onSuccess: () => resolve(),
            onError: reject,
          }).start();
        }),
    );

    // Whatever the listing shows at any moment must be a whole file.
    const partial: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const page = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token).catch(() => null);
        for (const f of (page?.files ?? []) as { name: string; size: string }[]) {
          if (String(expected.get(f.name)?.length) !== f.size) partial.push(`${f.name} ${f.size}`);
        }
        await sleep(100);
      }
    })();

    const kills: number[] = [];
    for (let k = 0; k < 5; k++) {
      const wait = 300 + Math.floor(Math.random() * 1500);
      kills.push(wait);
      await sleep(wait);
      await haul.crash();
      await haul.start();
    }
    await Promise.all(sent);
    const done = async (name: string, taskId: string | null) => {
      if (!taskId) return;
      const task = await until(() => haul.call('GET', `/drive/v1/tasks/${taskId}`, t.access_token), (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR');
      expect(task.phase, `${name} after kills at ${kills.join(', ')} ms: ${task.message}`).toBe('PHASE_TYPE_COMPLETE');
    };
    for (const d of downloads) await done(d.name, d.taskId);
    // Uploads whose last byte came just before a kill are finished by the server itself (start-up or HEAD).
    await until(() => haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token), (p) => p.files.length >= expected.size, 60_000).catch(
      async (err: Error) => {
        // What the drive holds and what became of each upload's task (the server's warnings follow, onTestFailed).
        const names = ((await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token)).files as { name: string }[]).map((f) => f.name);
        const tasks = ((await haul.call('GET', '/drive/v1/tasks?type=upload', t.access_token)).tasks as { name: string; phase: string; message: string }[]).map((x) => `${x.name} ${x.phase} ${x.message}`);
        throw new Error(`kills at ${kills.join(', ')} ms; listed: ${names.join(', ')}; uploads: ${tasks.join('; ')}; ${err.message.slice(0, 100)}`);
      },
    );
    watching = false;
    await watcher;

    const files = (await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token)).files as { name: string; id: string; size: string }[];
    expect(files.map((f) => f.name).sort(), `kills at ${kills.join(', ')} ms`).toEqual([...expected.keys()].sort());
    for (const f of files) {
      const link = (await haul.call('GET', `/drive/v1/files/${f.id}`, t.access_token)).web_content_link as string;
      expect(await sha256Of(link), f.name).toBe(createHash('sha256').update(expected.get(f.name)!).digest('hex'));
    }
    expect(partial).toEqual([]);

    // Stopped for good: the reconciliation pass leaves no file that no row explains.
    await haul.crash();
    const offline = await buildHaul({ ...loadConfig({}), firstRunSetup: false, dataDir, databaseUrl: db.url, logLevel: 'silent', webDir: join(dataDir, 'no-web') }, { logger: false });
    try {
      await reconcileOrphans(offline.ctx, 0);
      expect(filesUnder(join(dataDir, 'uploads'))).toEqual([]);
      expect(filesUnder(join(dataDir, 'blobs', 'tmp'))).toEqual([]);
      expect(filesUnder(join(dataDir, 'offline'))).toEqual([]);
      const rows = new Set((await offline.ctx.db.selectFrom('blobs').select('hash').execute()).map((r) => r.hash));
      const onDisk = filesUnder(join(dataDir, 'blobs')).filter((f) => !f.startsWith('tmp/')).map((f) => f.split('/').pop()!);
      expect(onDisk.sort()).toEqual([...rows].sort());
    } finally {
      await offline.close();
    }
  });
});
