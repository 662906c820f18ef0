/**
 * The packages only some settings use (the S3 stack, Stripe, nodemailer, the qBittorrent client, node-postgres,
 * openid-client) are loaded when their setting is on, not at start: the real server (its bundle, as `npm start` runs
 * it) is started with a preload that records every file under node_modules it resolves, through ES module imports
 * (a module-resolution hook) and CommonJS requires alike, and the packages of those files are checked once it answers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { database, HaulProcess } from './child-server.js';

const S3_STACK = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/s3-request-presigner', '@tus/s3-store'];
const OPTIONAL = [...S3_STACK, 'stripe', 'nodemailer', '@ctrl/qbittorrent', 'pg', 'openid-client', 'grammy', 'feedsmith'];

const work = mkdtempSync(join(tmpdir(), 'haul-lazy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The preload (run with --import): registers the resolve hook for ES modules (it runs on the loader's own thread) and
// wraps CommonJS resolution (createRequire, and the requires inside CommonJS packages), each appending what it
// resolved to the file named by HAUL_TEST_RESOLVED.
const PRELOAD = `
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
const out = process.env.HAUL_TEST_RESOLVED;
register('./resolve-hook.mjs', import.meta.url, { data: { out } });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolve.apply(this, args);
  if (typeof file === 'string' && file.includes('/node_modules/')) appendFileSync(out, file + '\\n');
  return file;
};
`;
const HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.includes('/node_modules/')) appendFileSync(out, decodeURIComponent(new URL(r.url).pathname) + '\\n');
  return r;
}
`;
writeFileSync(join(work, 'preload.mjs'), PRELOAD);
writeFileSync(join(work, 'resolve-hook.mjs'), HOOK);

/** The package a file under node_modules belongs to (the innermost node_modules: a dependency's own copy counts too). */
function packageOf(file: string): string {
  const rest = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

/** Starts the server with `env` on a fresh data directory, waits until it answers, and gives the packages it loaded. */
async function packagesLoadedAtStart(env: Record<string, string>): Promise<Set<string>> {
  const dataDir = mkdtempSync(join(work, 'data-'));
  const resolved = join(dataDir, 'resolved.txt');
  writeFileSync(resolved, '');
  const haul = new HaulProcess(await freeLoopbackPort(), {
    HAUL_DATA_DIR: dataDir,
    HAUL_WEB_DIR: join(dataDir, 'no-web'),
    HAUL_LOG_LEVEL: 'warn',
    HAUL_TORRENT_DHT: '0',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(work, 'preload.mjs')}`.trim(),
    HAUL_TEST_RESOLVED: resolved,
    ...env,
  });
  try {
    await haul.start();
    // A request that reaches the database and the session checks, past what start alone runs.
    const res = await fetch(`${haul.base}/drive/v1/about`);
    expect(res.status).toBe(401);
  } finally {
    if (haul.child) await haul.stop();
  }
  const files = readFileSync(resolved, 'utf8').split('\n').filter(Boolean);
  // The recording itself works: the core packages every start loads are there.
  expect(files.length).toBeGreaterThan(0);
  return new Set(files.map(packageOf));
}

describe('optional packages', () => {
  if (process.env.HAUL_TEST_BLOB_STORE === 's3') {
    it('loads the S3 stack at start when blobs are kept in S3, and no other optional package', async () => {
      const loaded = await packagesLoadedAtStart({ DATABASE_URL: '' });
      expect(loaded).toContain('fastify');
      // The tus store for S3 is made at start; it brings the SDK's client with it.
      expect(loaded).toContain('@tus/s3-store');
      expect(loaded).toContain('@aws-sdk/client-s3');
      expect(OPTIONAL.filter((p) => !S3_STACK.includes(p) && loaded.has(p))).toEqual([]);
    });
  } else {
    it('loads none of them at start on the embedded default', async () => {
      const loaded = await packagesLoadedAtStart({ DATABASE_URL: '' });
      expect(loaded).toContain('fastify');
      expect(loaded).toContain('better-sqlite3');
      expect(OPTIONAL.filter((p) => loaded.has(p))).toEqual([]);
    });
  }

  if (process.env.HAUL_TEST_DATABASE_URL) {
    it('loads node-postgres, and no other optional package, on PostgreSQL', async () => {
      const db = await database();
      try {
        const loaded = await packagesLoadedAtStart({ DATABASE_URL: db.url! });
        expect(loaded).toContain('pg');
        expect(OPTIONAL.filter((p) => p !== 'pg' && loaded.has(p))).toEqual([]);
      } finally {
        await db.drop();
      }
    });
  }
});
