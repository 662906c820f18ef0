/** Test harness: a real Haul on a fresh SQLite file, or a fresh PostgreSQL database when HAUL_TEST_DATABASE_URL is set. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { expect } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { buildHaul, type Haul } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import type { Clock } from '../src/lib/time.js';
import { placeFile } from '../src/files/files.service.js';
import { isContentHash } from '../src/storage/blob-store.js';
import { BLOB_PREFIX, S3BlobStore, TMP_PREFIX } from '../src/storage/s3-blob-store.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';
import { UPLOAD_PREFIX } from '../src/uploads/s3-upload-store.js';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';

export interface TestHaul extends Haul {
  dataDir: string;
  /** Calls the API in-process as `token`'s user. */
  api: (method: string, url: string, token?: string, body?: unknown) => Promise<{ status: number; body: any; headers: Record<string, any>; raw: Buffer }>;
  signUp: (email?: string, password?: string) => Promise<TokenResponse>;
  /** Stores bytes and places them as a file (the upload path's last step). */
  putFile: (token: TokenResponse, parentId: string, name: string, content: string | Buffer) => Promise<any>;
  destroy: () => Promise<void>;
}

export class ManualClock implements Clock {
  constructor(public t = Date.UTC(2026, 10, 1)) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

async function freshPostgres(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `haul_t_${newId().toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** `logStream` receives the server's log lines (at `overrides.logLevel`; silent unless given). */
export async function startTestHaul(overrides: Partial<Config> = {}, clock?: Clock, opts: { logStream?: { write(line: string): void } } = {}): Promise<TestHaul> {
  // A folder the caller gives is used (and removed by destroy) as is, so no unused one is left behind.
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'haul-test-'));
  const pgBase = process.env.HAUL_TEST_DATABASE_URL;
  const pgDb = pgBase ? await freshPostgres(pgBase) : null;
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: pgDb?.url ?? null,
    // Pinned, so links read http://haul.test/... whatever Host inject sends (test/public-url.test.ts unpins it).
    publicUrl: 'http://haul.test',
    publicUrlPinned: true,
    webDir: join(dataDir, 'no-web'),
    // Every peer of a test is on loopback, found through its tracker.
    torrentDht: false,
    logLevel: 'silent',
    checkResponses: true,
    // Tests make accounts as they need them; first-run setup has its own test (test/first-run-setup.test.ts).
    firstRunSetup: false,
    // HAUL_TEST_BLOB_STORE=s3: every byte goes to a bucket of its own on the test S3 server.
    ...(process.env.HAUL_TEST_BLOB_STORE === 's3' ? { blobStore: 's3' as const, s3: await s3ConfigFor(await testS3(), testBucket()) } : {}),
    ...overrides,
  };
  const haul = await buildHaul(config, { clock, logger: !!opts.logStream, logStream: opts.logStream });

  const api: TestHaul['api'] = async (method, url, token, body) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const res = await haul.app.inject({ method: method as any, url, headers, ...(body !== undefined ? { payload: body as any } : {}) });
    let parsed: unknown = undefined;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed, headers: res.headers, raw: res.rawPayload };
  };

  let n = 0;
  const signUp: TestHaul['signUp'] = async (email, password = 'correct horse') => {
    const res = await api('POST', '/v1/auth/signup', undefined, { email: email ?? `user${++n}x${randomBytes(4).toString('hex')}@example.com`, password });
    if (res.status !== 200) throw new Error(`signup failed: ${JSON.stringify(res.body)}`);
    return res.body as TokenResponse;
  };

  const putFile: TestHaul['putFile'] = async (token, parentId, name, content) => {
    const blob = await haul.ctx.blobs.put(Readable.from([Buffer.from(content)]));
    const row = await placeFile(haul.ctx, token.sub, { parentId, name, hash: blob.hash, size: blob.size });
    return row;
  };

  return {
    ...haul,
    dataDir,
    api,
    signUp,
    putFile,
    async destroy() {
      try {
        await haul.close();
      } finally {
        await pgDb?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A sudo token of the session behind `accessToken`, for calls that make a lasting way in or change account security. */
export async function sudoToken(h: Pick<TestHaul, 'api'>, accessToken: string, password = 'correct horse'): Promise<string> {
  const res = await h.api('POST', '/v1/user/sudo', accessToken, { password });
  if (res.status !== 200) throw new Error(`sudo: ${JSON.stringify(res.body)}`);
  return res.body.sudo_token;
}

/** Creates a folder through the API and returns its id. */
export async function mkdir(h: TestHaul, token: string, name: string, parentId = ''): Promise<string> {
  const res = await h.api('POST', '/drive/v1/files', token, { kind: 'drive#folder', name, parent_id: parentId });
  if (res.status !== 200) throw new Error(`mkdir ${name}: ${JSON.stringify(res.body)}`);
  return res.body.file.id;
}

/** Names in a folder listing, in the order the server gave them. */
export async function names(h: TestHaul, token: string, parentId = '', query = ''): Promise<string[]> {
  const res = await h.api('GET', `/drive/v1/files?parent_id=${encodeURIComponent(parentId)}${query}`, token);
  if (res.status !== 200) throw new Error(`list: ${JSON.stringify(res.body)}`);
  return res.body.files.map((f: { name: string }) => f.name);
}

/** Whether the blob store holds the bytes of `hash`, whichever store the run uses (a local file, an object). */
export const blobExists = (h: TestHaul, hash: string): Promise<boolean> => h.ctx.blobs.has(hash);

/** Hashes of every blob the store holds: the local folder's `ab/cd/<hash>` files, or the bucket's blob keys. */
export async function storedBlobs(h: TestHaul): Promise<string[]> {
  if (h.ctx.blobs instanceof S3BlobStore) {
    return (await s3Keys(h.ctx.blobs, BLOB_PREFIX)).map((k) => k.slice(k.lastIndexOf('/') + 1)).filter(isContentHash);
  }
  const root = join(h.dataDir, 'blobs');
  const out: string[] = [];
  for (const a of ls(root).filter((n) => /^[0-9a-f]{2}$/.test(n))) for (const b of ls(join(root, a))) out.push(...ls(join(root, a, b)).filter(isContentHash));
  return out;
}

/** What unfinished blob writes left: files in the local `blobs/tmp`, or the bucket's `tmp/` keys. */
export async function blobTemporaries(h: TestHaul): Promise<string[]> {
  if (h.ctx.blobs instanceof S3BlobStore) return s3Keys(h.ctx.blobs, TMP_PREFIX);
  return ls(join(h.dataDir, 'blobs', 'tmp')).filter((n) => !n.startsWith('.'));
}

/** What tus uploads hold: files in the local `uploads` folder, or the bucket's `uploads/` keys and unfinished multipart uploads. */
export async function uploadLeftovers(h: TestHaul): Promise<string[]> {
  if (!(h.ctx.blobs instanceof S3BlobStore)) return ls(join(h.dataDir, 'uploads')).filter((n) => !n.startsWith('.'));
  const { client, bucket } = h.ctx.blobs;
  const keys = (await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: UPLOAD_PREFIX }))).Contents?.map((o) => o.Key!) ?? [];
  const open = (await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: UPLOAD_PREFIX }))).Uploads?.map((u) => `multipart ${u.Key}`) ?? [];
  return [...keys, ...open];
}

const ls = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

async function s3Keys(store: S3BlobStore, prefix: typeof BLOB_PREFIX | typeof TMP_PREFIX): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of store.list(prefix)) keys.push(...page.map((e) => e.key));
  return keys;
}

/** The console's tests' start: an operator and a person, both signed in, and the walk that refuses the console to them. */
export interface ConsoleFixture {
  h: TestHaul;
  admin: TokenResponse;
  person: TokenResponse;
  signIn: (email: string, password?: string) => ReturnType<TestHaul['api']>;
  /**
   * Calls each route as the person (403 permission_denied) and with no token (401 unauthenticated), then checks that
   * `snapshot` reads the same as before: a refused call changed nothing.
   */
  refusedToPeople: (calls: [method: string, url: string, body: unknown][], snapshot: () => Promise<unknown>) => Promise<void>;
}

/** Starts a Haul with `operator@example.com` (an operator) and `person@example.com`, each signed in with `password`. */
export async function startConsoleFixture(overrides: Partial<Config> = {}, password = 'correct horse'): Promise<ConsoleFixture> {
  const h = await startTestHaul(overrides);
  const signIn = (email: string, pw = password) => h.api('POST', '/v1/auth/signin', undefined, { username: email, password: pw });
  await createUser(h.ctx, { email: 'operator@example.com', password, isAdmin: true });
  await createUser(h.ctx, { email: 'person@example.com', password });
  const [admin, person] = [(await signIn('operator@example.com')).body as TokenResponse, (await signIn('person@example.com')).body as TokenResponse];
  const refusedToPeople: ConsoleFixture['refusedToPeople'] = async (calls, snapshot) => {
    const before = await snapshot();
    for (const [method, url, body] of calls) {
      const asPerson = await h.api(method, url, person.access_token, body);
      expect([asPerson.status, asPerson.body.error], `${method} ${url} as a person`).toEqual([403, 'permission_denied']);
      const anonymous = await h.api(method, url, undefined, body);
      expect([anonymous.status, anonymous.body.error], `${method} ${url} with no token`).toEqual([401, 'unauthenticated']);
    }
    // Anything a refused call set going would have landed by now.
    await new Promise((r) => setTimeout(r, 100));
    expect(await snapshot()).toEqual(before);
  };
  return { h, admin, person, signIn, refusedToPeople };
}

/** Polls `what` every 100 ms until `ok` holds; a failure of `what` fails at once (see child-server.ts for a server that may be down). */
export async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting; last: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
