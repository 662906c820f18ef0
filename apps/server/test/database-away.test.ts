/**
 * PostgreSQL stopped under a running server (a restart, a failover) and started again: requests fail fast with a 503
 * and the error object (never a 401 that would sign the client out), a download running meanwhile does not take the
 * process down, and once the database is back everything works again without restarting Haul. The cluster is this
 * test's own, so stopping it disturbs no other test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.mjs';
import { buildHaul, type Haul } from '../src/app.js';
import { loadConfig } from '../src/config.js';

describe('when the database goes away', { timeout: 120_000 }, () => {
  let pg: PgCluster;
  let haul: Haul;
  let dataDir: string;
  let origin: Server;
  let base: string;
  beforeAll(async () => {
    pg = await startPgCluster();
    dataDir = mkdtempSync(join(tmpdir(), 'haul-db-away-'));
    // A slow origin: the download is still running when the database stops.
    const content = randomBytes(4 * 1024 * 1024);
    origin = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': content.length });
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(content.subarray(at, (at += 64 * 1024)));
        if (at >= content.length) {
          clearInterval(timer);
          res.end();
        }
      }, 50);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
    haul = await buildHaul(
      { ...loadConfig({}), firstRunSetup: false, dataDir, databaseUrl: pg.url, publicUrl: 'http://haul.test', publicUrlPinned: true, webDir: join(dataDir, 'no-web'), logLevel: 'silent', allowPrivateNetwork: true, taskLeaseSeconds: 2 },
      { logger: false },
    );
    haul.offline.start();
  });
  afterAll(async () => {
    await haul?.close();
    origin?.closeAllConnections();
    origin?.close();
    pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, url: string, token?: string, payload?: object, headers: Record<string, string> = {}) => {
    const res = await haul.app.inject({ method: method as 'GET', url, payload, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers };
  };

  it('answers 503 while it is away, keeps the download and the process alive, and recovers by itself', async () => {
    const t = (await call('POST', '/v1/auth/signup', undefined, { email: 'away@example.com', password: 'correct horse' })).body;
    const folder = (await call('POST', '/drive/v1/files', t.access_token, { kind: 'drive#folder', name: 'Before', parent_id: '' })).body.file;
    const task = (await call('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${base}/slow.bin` } })).body.task;
    await new Promise((r) => setTimeout(r, 1500));

    pg.pause();
    const started = Date.now();
    const list = await call('GET', '/drive/v1/files?parent_id=', t.access_token);
    expect(list.status).toBe(503);
    expect(list.body).toMatchObject({ error: 'unavailable', error_code: 14 });
    expect(list.headers['retry-after']).toBe('5');
    expect(Date.now() - started).toBeLessThan(10_000);
    // Neither a sign-in nor the upload endpoint mistakes it for a bad password or token.
    expect((await call('POST', '/v1/auth/signin', undefined, { username: 'away@example.com', password: 'correct horse' })).status).toBe(503);
    const tus = await call('HEAD', '/drive/v1/uploads/AAAAAAAAAAAAAAAAAAAA', t.access_token, undefined, { 'tus-resumable': '1.0.0' });
    expect(tus.status).toBe(503);
    // The download keeps trying to report while the database is away.
    await new Promise((r) => setTimeout(r, 2500));

    pg.resume();
    let back = await call('GET', '/drive/v1/files?parent_id=', t.access_token);
    for (let i = 0; back.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      back = await call('GET', '/drive/v1/files?parent_id=', t.access_token);
    }
    expect(back.status).toBe(200);
    expect(back.body.files.map((f: { id: string }) => f.id)).toContain(folder.id);
    // The download ends as it would have: its lease runs out, it is taken up again and completes.
    const end = Date.now() + 60_000;
    let phase = '';
    while (Date.now() < end) {
      phase = (await call('GET', `/drive/v1/tasks/${task.id}`, t.access_token)).body.phase;
      if (phase === 'PHASE_TYPE_COMPLETE' || phase === 'PHASE_TYPE_ERROR') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(phase).toBe('PHASE_TYPE_COMPLETE');
  });

  it('answers 503 when SQLite stays busy under another writer past its timeout, and works once the writer is done', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haul-busy-'));
    const local = await buildHaul({ ...loadConfig({}), firstRunSetup: false, dataDir: dir, databaseUrl: null, publicUrl: 'http://haul.test', publicUrlPinned: true, webDir: join(dir, 'no-web'), logLevel: 'silent' }, { logger: false });
    const writer = new SQLite(join(dir, 'haul.db'));
    try {
      const up = await local.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'busy@example.com', password: 'correct horse' } });
      const token = JSON.parse(up.body).access_token as string;
      const mkdir = (name: string) =>
        local.app.inject({ method: 'POST', url: '/drive/v1/files', headers: { authorization: `Bearer ${token}` }, payload: { kind: 'drive#folder', name, parent_id: '' } });
      // Another process holds the write lock longer than the busy timeout (5 s).
      writer.exec('BEGIN IMMEDIATE');
      const busy = await mkdir('While busy');
      expect(busy.statusCode).toBe(503);
      expect(JSON.parse(busy.body).error).toBe('unavailable');
      writer.exec('ROLLBACK');
      expect((await mkdir('After')).statusCode).toBe(200);
      const names = JSON.parse((await local.app.inject({ method: 'GET', url: '/drive/v1/files?parent_id=', headers: { authorization: `Bearer ${token}` } })).body).files.map((f: { name: string }) => f.name);
      expect(names).toEqual(['After']);
    } finally {
      writer.close();
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
