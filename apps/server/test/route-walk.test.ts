/**
 * Walks every registered route (h.routes, not a hand-picked list), so a route added later is covered without edits:
 * 1. without a token every route answers 401 unless it is listed as public;
 * 2. another user's ids answer exactly like ids that do not exist, and change nothing of the owner's;
 * 3. hostile values in every declared field never cause a 5xx, and every 4xx is the error object.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import type { RouteEntry } from '../src/app.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

/** Routes that answer without a token, each with why. Anything else must answer 401 unauthenticated. */
const PUBLIC: Record<string, string> = {
  'POST /v1/auth/signup': 'creates an account',
  'POST /v1/auth/signin': 'trades a password for tokens',
  'POST /v1/auth/token': 'trades a refresh token for tokens',
  'POST /v1/auth/revoke': 'the refresh token in the body is the credential',
  'GET /drive/v1/content/:id': 'signed download link: the signature is the permission',
  'GET /drive/v1/thumbnails/:fileId': 'signed media link',
  'GET /drive/v1/media/:fileId/origin': 'signed media link',
  'GET /drive/v1/media/:fileId/:mediaId/index.m3u8': 'signed media link',
  'GET /drive/v1/media/:fileId/:mediaId/:segment': 'signed media link',
  'GET /drive/v1/share': 'public share page',
  'GET /drive/v1/share/file_info': 'public share page',
  'GET /drive/v1/share/content/:id': 'signed share content link',
  'GET /drive/v1/share/code': 'resolves a typed share code for the public share page',
  // tus does its own auth, after its protocol checks (412, 400, 404 before the token): every method is listed, and
  // the isolation walk below still calls these routes as another user with the owner's upload id.
  '* /drive/v1/uploads': 'tus: protocol errors come before its own token check',
  '* /drive/v1/uploads/*': 'tus: protocol errors come before its own token check',
  'GET /': 'redirect to the web app',
};

/** Values the server needs that a schema cannot say (a plain string that must be one of a few words). */
const HINTS: Record<string, unknown> = { name: 'walk', kind: 'drive#folder', share_to: 'publiclink', phase: 'PHASE_TYPE_PAUSED', phases: 'PHASE_TYPE_ERROR', type: 'offline', email: 'walk@example.com', password: 'correct horse', grant_type: 'refresh_token' };

type Kind = 'file' | 'share' | 'task' | 'upload' | 'event';
type Ids = Record<Kind, string[]>;
type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; const?: unknown; enum?: unknown[]; minimum?: number; minLength?: number; pattern?: string };
type Req = { params: Record<string, string>; query: Record<string, unknown>; body?: unknown; rawBody?: string; rawPath?: boolean };

const randomId = () => randomBytes(15).toString('base64url');
const pick = (chars: string) => chars[randomInt(chars.length)]!;
/** A random id of the same shape (length, character classes) as `id`, so patterns treat both alike. */
const ghostLike = (id: string) =>
  id.replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz')).replace(/[A-Z]/g, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).replace(/[0-9]/g, () => pick('0123456789'));
const name = (r: RouteEntry) => `${r.method} ${r.url}`;
const publicEntry = (r: RouteEntry) => PUBLIC[name(r)] ?? PUBLIC[`* ${r.url}`];
/** Routes that check a token themselves after other checks (tus): public to the no-token walk, not to isolation. */
const ownAuth = (r: RouteEntry) => !PUBLIC[name(r)] && !!PUBLIC[`* ${r.url}`];
const pathParams = (url: string) => [...url.replace(/::/g, '').matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
const schemaOf = (r: RouteEntry, part: 'querystring' | 'body' | 'params') => r.schema?.[part] as Schema | undefined;
const isErrorObject = (b: any) => !!b && typeof b.error === 'string' && typeof b.error_code === 'number';

/** Which kind of id a field (or path parameter) of a route names, if any. */
function kindOf(url: string, field: string): Kind | null {
  if (/^share_ids?$/.test(field)) return 'share';
  if (/^task_ids?$/.test(field)) return 'task';
  if (/^(file_?ids?|parent_id)$/i.test(field)) return 'file';
  if (/^(id|ids|\*)$/.test(field)) {
    if (url.includes('/uploads')) return 'upload';
    if (url.includes('/share')) return 'share';
    if (url.includes('/task')) return 'task';
    if (url.includes('/events')) return 'event';
    return 'file';
  }
  return null;
}

/** A minimal valid value for a schema; `idFor` fills fields that name ids (required or not, at the top level). */
function sample(s: Schema, field: string, idFor: (field: string) => string | null, top = false): unknown {
  if (s.anyOf) return sample(s.anyOf[0]!, field, idFor);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const id = idFor(field);
  if (id !== null && (s.type === 'string' || s.type === 'array')) return s.type === 'array' ? [id] : id;
  if (s.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      if (s.required?.includes(k) || (top && (idFor(k) !== null || k in HINTS))) out[k] = sample(p, k, idFor);
    }
    return out;
  }
  if (s.type === 'array') return [sample(s.items ?? { type: 'string' }, field, () => null)];
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return false;
  if (field in HINTS) return HINTS[field];
  const fits = (v: string) => (!s.pattern || new RegExp(s.pattern).test(v)) && v.length >= (s.minLength ?? 0);
  return ['x', '1', 'abc123', 'a'.repeat(64)].find(fits) ?? 'x';
}

/** A request for `r` whose id fields hold `ids[kind][variant]`; filters name an id too where the listing takes one. */
function build(r: RouteEntry, idFor: (kind: Kind, field: string) => string): Req {
  const fill = (f: string) => {
    const k = kindOf(r.url, f);
    return k ? idFor(k, f) : null;
  };
  const params: Record<string, string> = {};
  for (const p of pathParams(r.url)) params[p] = fill(p) ?? randomId();
  const q = schemaOf(r, 'querystring');
  const query = q ? (sample(q, '', fill, true) as Record<string, unknown>) : {};
  const listKind = kindOf(r.url, 'id');
  if (q?.properties?.filters && listKind !== 'event') query.filters = JSON.stringify({ id: { in: idFor(listKind ?? 'file', 'filters') } });
  const b = schemaOf(r, 'body');
  return { params, query, body: b ? sample(b, '', fill, true) : undefined };
}

/** Sends `req` for `r` in-process. Tus-Resumable goes on every request so tus reaches its own checks. */
async function send(h: TestHaul, r: RouteEntry, req: Req, token?: string) {
  let url = r.url.replace(/::/g, '\u0001');
  const enc = req.rawPath ? (v: string) => v : encodeURIComponent;
  url = url.replace(/:(\w+)|\*/g, (_, p: string | undefined) => enc(req.params[p ?? '*'] ?? '')).replace(/\u0001/g, ':');
  const qs = Object.entries(req.query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${encodeURIComponent(typeof x === 'object' ? JSON.stringify(x) : String(x))}`))
    .join('&');
  // tus headers on every request, so the tus routes get past their protocol checks to their own (owner) check.
  const headers: Record<string, string> = { 'tus-resumable': '1.0.0', 'upload-offset': '0' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (r.url.startsWith('/drive/v1/uploads') && r.method === 'PATCH') {
    headers['content-type'] = 'application/offset+octet-stream';
    payload = '';
  } else if (req.rawBody !== undefined) payload = req.rawBody;
  else if (req.body !== undefined) payload = JSON.stringify(req.body);
  else if (!['GET', 'DELETE', 'OPTIONS', 'TRACE'].includes(r.method) && !r.url.startsWith('/drive/v1/uploads')) payload = '{}';
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const res = await h.app.inject({ method: r.method as any, url: qs ? `${url}?${qs}` : url, headers, payload });
  let body: any;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, text: res.body, headers: res.headers };
}

/** Hostile values for any field: empty, huge, numeric-looking, JSON-looking, control and bidi characters, paths. */
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const HOSTILE: unknown[] = [
  '', ' ', 'x'.repeat(5000), '-1', '0', '1e308', 'NaN', 'null', '[]', '{}', '{"a":', '%00', '\u0000', '../../etc/passwd', '\u202e',
  b64({ k: 'NAME_ASC', v: [{ a: 1 }, [2]] }), b64({ k: 'sync', v: ['x', 5] }), b64({ k: 'tasks', v: [null, null] }),
  Array.from({ length: 2000 }, (_, i) => `x${i}`),
];
/** Body fields also get JSON of the wrong type. */
const HOSTILE_JSON: unknown[] = [5, -1, 1e308, 0.5, true, null, [], {}, [[['x']]], { a: { b: [1] } }, Array(2000).fill(7)];
/** Whole bodies that are not the object a route declares. */
const RAW_BODIES = ['{"a":', '[]', 'null', '"x"', '5', '{"__proto__":{"polluted":1}}'];
/** Page tokens: every listing name with values of wrong types, sizes and counts. */
const PAGE_TOKENS = [
  '!!!', b64('not json'), b64('null'), b64('[1]'), b64({ k: 'tasks' }),
  ...['MODIFY_TIME_DESC', 'NAME_ASC', 'SIZE_ASC', 'TYPE_DESC', 'sync', 'tasks', 'events', 'shares', '__proto__'].flatMap((k) =>
    [[{ a: 1 }, [2]], ['x', 5], [null, null], [1e308, 'x'], [9007199254740993, 'x'], [1, 'x'.repeat(2000)], [1, 'x', 'y'], 'v'].map((v) => b64({ k, v })),
  ),
];
const FILTERS = [
  '{"id":{"in":[{"a":1},[2]]}}', JSON.stringify({ id: { in: Array.from({ length: 2000 }, (_, i) => `i${i}`).join(',') } }),
  '{"trashed":{"eq":"true"}}', '{"phase":{"in":[1,null]}}', '{"modified_time":{"gt":1e308}}', '{"modified_time":{"gt":"9999-99-99T99:99:99Z"}}',
  '{"name":{"contains":"%_\\\\\'"}}', '{"__proto__":{"eq":1}}', '{"constructor":{"in":"x"}}', '{"type":{"eq":["TYPE_PLAY",{}]}}', '{"type":{}}',
  '{"id":null}', '{"id":{"in":null}}', '{"id":{"eq":"x","in":"y"}}', '{"kind":{"eq":null}}', '{"star":{"eq":{}}}', '{"system_tag":{"in":[["STAR"]]}}',
  '{"phase":{"eq":"PHASE_TYPE_COMPLETE"},"trashed":{"eq":true},"modified_time":{"gt":"2020-01-01T00:00:00Z"}}', '[]', 'null', '1', '"x"',
];
/** Routes without a query schema still read a few loose query names (signed links, share codes). */
const LOOSE_QUERY = ['u', 'e', 's', 'share_id', 'code', 'size'];

type Slot = { where: 'params' | 'query' | 'body'; path: string[] };
/** Every place a route takes input: path params, query names, body fields at any depth. */
function slotsOf(r: RouteEntry): Slot[] {
  const out: Slot[] = pathParams(r.url).map((p) => ({ where: 'params' as const, path: [p] }));
  const q = schemaOf(r, 'querystring');
  const names = q ? Object.keys(q.properties ?? {}) : r.method === 'GET' ? LOOSE_QUERY : [];
  out.push(...names.map((n) => ({ where: 'query' as const, path: [n] })));
  const walk = (s: Schema, path: string[]) => {
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      out.push({ where: 'body', path: [...path, k] });
      if (p.type === 'object') walk(p, [...path, k]);
    }
  };
  const b = schemaOf(r, 'body');
  if (b) walk(b, []);
  return out;
}

/** `base` with the value at `slot` replaced. */
function withValue(base: Req, slot: Slot, value: unknown): Req {
  const req: Req = structuredClone(base);
  let target: any = slot.where === 'body' ? (req.body ??= {}) : req[slot.where];
  for (const k of slot.path.slice(0, -1)) target = target[k] && typeof target[k] === 'object' ? target[k] : (target[k] = {});
  target[slot.path.at(-1)!] = value;
  return req;
}

describe('route walk', () => {
  let h: TestHaul;
  // Every account is made up front: sign-ups are limited per network, and the fuzz walk spends that allowance.
  let a: TokenResponse, b: TokenResponse, fuzzer: TokenResponse, tusUser: TokenResponse;
  const bEmail = `walker${randomBytes(4).toString('hex')}@example.com`;
  beforeAll(async () => {
    h = await startTestHaul();
    [a, b, fuzzer, tusUser] = [await h.signUp(), await h.signUp(bEmail), await h.signUp(), await h.signUp()];
  });
  afterAll(() => h.destroy());

  it('answers 401 without a token, except on the listed public routes, and never 5xx', async () => {
    expect(h.routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const r of h.routes) {
      const res = await send(h, r, { params: Object.fromEntries(pathParams(r.url).map((p) => [p, randomId()])), query: {} });
      const line = `${name(r)} -> ${res.status} ${res.text.slice(0, 160)}`;
      if (res.status >= 500) failures.push(`5xx: ${line}`);
      const is401 = res.status === 401 && res.body?.error === 'unauthenticated' && isErrorObject(res.body);
      if (!is401 && !publicEntry(r)) failures.push(`not 401 and not public: ${line}`);
      // A listed route that wants a token anyway means the list is wider than it needs to be.
      if (is401 && PUBLIC[name(r)]) failures.push(`listed public but answers 401: ${name(r)}`);
    }
    // The list cannot rot: every entry names a route that exists.
    const known = new Set(h.routes.flatMap((r) => [name(r), `* ${r.url}`]));
    for (const entry of Object.keys(PUBLIC)) if (!known.has(entry)) failures.push(`public entry names no route: ${entry}`);
    expect(failures).toEqual([]);
  });

  it("answers another user's ids exactly like ids that do not exist, and changes nothing of theirs", async () => {
    const tok = a.access_token;
    const folder = await mkdir(h, tok, 'Private');
    const inner = (await h.putFile(a, folder, 'secret.txt', 'top secret')).id;
    const root = (await h.putFile(a, '', 'root.txt', 'root bytes')).id;
    const trashed = (await h.putFile(a, '', 'binned.txt', 'old')).id;
    expect((await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [trashed] })).status).toBe(200);
    const share = await h.api('POST', '/drive/v1/share', tok, { file_ids: [inner], share_to: 'encryptedlink', expiration_days: -1, pass_code: 'walk1' });
    expect(share.status).toBe(200);
    expect((await h.api('POST', '/drive/v1/events', tok, { event: { type: 'TYPE_PLAY', file_id: inner } })).status).toBe(200);
    const event = (await h.api('GET', '/drive/v1/events', tok)).body.events[0].id;
    const offline = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: 'http://walk.invalid/a.bin' }, parent_id: '' });
    expect(offline.status).toBe(200);
    const upload = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'up.bin', size: 10, parent_id: '' });
    expect(upload.status).toBe(200);
    const ids: Ids = {
      file: [folder, inner, root, trashed],
      share: [share.body.share_id],
      task: [offline.body.task.id, upload.body.task.id],
      upload: [upload.body.resumable.params.key],
      event: [event],
    };
    const allIds = [a.sub, ...Object.values(ids).flat()];
    // The offline task was kicked on creation; wait until it has failed (.invalid never resolves), or rows would move.
    let phase = '';
    for (let i = 0; i < 150 && !/ERROR|COMPLETE/.test(phase); i++) {
      if (i) await new Promise((res) => setTimeout(res, 100));
      phase = (await h.api('GET', `/drive/v1/tasks/${ids.task[0]}`, tok)).body.phase;
    }
    expect(phase).toBe('PHASE_TYPE_ERROR');

    const db = h.ctx.db;
    const snapshot = async () => ({
      users: await db.selectFrom('users').selectAll().where('id', '=', a.sub).execute(),
      files: await db.selectFrom('files').selectAll().where('user_id', '=', a.sub).orderBy('id').execute(),
      shares: await db.selectFrom('shares').selectAll().where('user_id', '=', a.sub).orderBy('id').execute(),
      share_files: await db.selectFrom('share_files').selectAll().where('share_id', 'in', ids.share).orderBy('file_id').execute(),
      tasks: await db.selectFrom('tasks').selectAll().where('user_id', '=', a.sub).orderBy('id').execute(),
      uploads: await db.selectFrom('uploads').selectAll().where('user_id', '=', a.sub).orderBy('id').execute(),
      events: await db.selectFrom('events').selectAll().where('user_id', '=', a.sub).orderBy('id').execute(),
    });
    const before = await snapshot();

    // A share id is a capability: whoever has the link may save from it (restore), so there it stays A's in both
    // requests and only the file and folder ids are swapped for ghosts.
    const LINK_FIELDS: Record<string, string[]> = { 'POST /drive/v1/share/restore': ['share_id'] };
    const failures: string[] = [];
    const noIds: RouteEntry[] = [];
    let walked = 0;
    const leaks = (text: string) => allIds.filter((id) => text.includes(id));
    for (const r of h.routes.filter((r) => !publicEntry(r) || ownAuth(r))) {
      const used = new Set<Kind>();
      build(r, (k) => (used.add(k), ''));
      if (!used.size) {
        noIds.push(r);
        continue;
      }
      walked++;
      const variants = Math.max(...[...used].map((k) => ids[k].length));
      for (let v = 0; v < variants; v++) {
        const theirs = build(r, (k) => ids[k][v % ids[k].length]!);
        const ghost = build(r, (k, field) => {
          const id = ids[k][v % ids[k].length]!;
          return LINK_FIELDS[name(r)]?.includes(field) ? id : ghostLike(id);
        });
        const x = await send(h, r, theirs, b.access_token);
        const y = await send(h, r, ghost, b.access_token);
        const what = `${name(r)} ${JSON.stringify({ ...theirs.params, ...theirs.query, ...(theirs.body as object) }).slice(0, 200)}`;
        if (x.status !== y.status || x.body?.error !== y.body?.error) {
          failures.push(`differs: ${what}: theirs ${x.status} ${x.text.slice(0, 200)} / ghost ${y.status} ${y.text.slice(0, 200)}`);
        }
        if (x.status >= 500) failures.push(`5xx: ${what}: ${x.text.slice(0, 200)}`);
        const leaked = leaks(x.text).filter((id) => !LINK_FIELDS[name(r)] || id !== ids.share[0]);
        if (leaked.length) failures.push(`leaks ${leaked.join(',')}: ${what}: ${x.text.slice(0, 300)}`);
      }
    }
    // Routes that name no id still run once as B (emptying B's trash must not touch A's); one may end B's sessions.
    for (const r of noIds) {
      const res = await send(h, r, build(r, () => ''), b.access_token);
      if (res.status >= 500) failures.push(`5xx: ${name(r)}: ${res.text.slice(0, 200)}`);
      if (leaks(res.text).length) failures.push(`leaks: ${name(r)}: ${res.text.slice(0, 300)}`);
      if ((await h.api('GET', '/v1/user/me', b.access_token)).status === 401) {
        b = (await h.api('POST', '/v1/auth/signin', undefined, { username: bEmail, password: 'correct horse' })).body;
      }
    }
    expect(walked).toBeGreaterThan(10);
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers hostile values in every field without a 5xx, and every 4xx as the error object', async () => {
    const c = fuzzer;
    const tok = c.access_token;
    const folder = await mkdir(h, tok, 'Fuzz');
    const file = (await h.putFile(c, folder, 'f.txt', 'fuzz bytes')).id;
    const share = (await h.api('POST', '/drive/v1/share', tok, { file_ids: [folder], share_to: 'publiclink', expiration_days: -1 })).body.share_id;
    await h.api('POST', '/drive/v1/events', tok, { event: { type: 'TYPE_PLAY', file_id: file } });
    const event = (await h.api('GET', '/drive/v1/events', tok)).body.events[0].id;
    const upload = (await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'u.bin', size: 10, parent_id: '' })).body;
    const own: Record<Kind, string> = { file: folder, share, task: upload.task.id, upload: upload.resumable.params.key, event };
    // Copies and restores land in a folder of their own: into the shared folder itself, each would double it.
    const dest = await mkdir(h, tok, 'Dest');

    // One line per kind of failure (status and error code), naming every route and field that showed it.
    const failures = new Map<string, { example: string; where: Set<string> }>();
    const preview = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 40);
    let sent = 0;
    for (const r of h.routes) {
      const base = build(r, (k, field) => (field === 'parent_id' ? dest : own[k]));
      const tries: [string, Req][] = [];
      for (const slot of slotsOf(r)) {
        const field = slot.path.at(-1)!;
        let values = [...HOSTILE, ...(slot.where === 'body' ? HOSTILE_JSON : [])];
        if (field === 'page_token') values.push(...PAGE_TOKENS);
        if (field === 'filters') values.push(...FILTERS);
        // A path segment is a string; a list there is just a long comma-joined string, already covered.
        if (slot.where === 'params') values = values.filter((v) => typeof v === 'string');
        tries.push(...values.map((v): [string, Req] => [`${slot.where} ${slot.path.join('.')}=${preview(v)}`, withValue(base, slot, v)]));
        // A path segment that is not valid percent-encoding at all.
        if (slot.where === 'params') tries.push([`raw path ${field}=%E0%A4%A`, { ...withValue(base, slot, '%E0%A4%A'), rawPath: true }]);
      }
      if (schemaOf(r, 'body')) tries.push(...RAW_BODIES.map((rawBody): [string, Req] => [`raw body ${rawBody}`, { ...base, rawBody }]));
      for (const [label, req] of tries) {
        const res = await send(h, r, req, tok);
        sent++;
        const problem = res.status >= 500 ? '5xx' : res.status >= 400 && !isErrorObject(res.body) ? '4xx without the error object' : null;
        if (!problem) continue;
        const key = `${problem}: ${res.status} ${res.body?.code ?? res.body?.error ?? ''}`;
        if (!failures.has(key)) failures.set(key, { example: `${name(r)} ${label} -> ${res.text.slice(0, 140)}`, where: new Set() });
        failures.get(key)!.where.add(`${name(r)} ${label.split('=')[0]}`);
      }
    }
    // Nothing above may end the session the walk runs with.
    expect((await h.api('GET', '/v1/user/me', tok)).status).toBe(200);
    expect(sent).toBeGreaterThan(1000);
    expect([...failures].map(([key, f]) => `${key} at ${[...f.where].join('; ')} (e.g. ${f.example})`)).toEqual([]);
  }, 60_000);

  it('answers tus errors as the error object', async () => {
    const c = tusUser;
    const up = await h.api('POST', '/drive/v1/files', c.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 't.bin', size: 10, parent_id: '' });
    const url = `/drive/v1/uploads/${up.body.resumable.params.key}`;
    const auth = { authorization: `Bearer ${c.access_token}` };
    const chunk = { 'content-type': 'application/offset+octet-stream' };
    const json = (res: { headers: Record<string, unknown> }) => expect(String(res.headers['content-type'])).toMatch(/^application\/json/);

    // A HEAD answer has no body on the wire: the status and the type say it; the PATCH below shows the body.
    const head = await h.app.inject({ method: 'HEAD', url, headers: auth });
    expect(head.statusCode).toBe(412);
    json(head);
    const noVersion = await h.app.inject({ method: 'PATCH', url, headers: { ...auth, ...chunk, 'upload-offset': '0' }, payload: 'abc' });
    expect(noVersion.statusCode).toBe(412);
    json(noVersion);
    expect(noVersion.json()).toMatchObject({ error: 'failed_precondition', error_code: expect.any(Number) });

    const wrongOffset = await h.app.inject({ method: 'PATCH', url, headers: { ...auth, ...chunk, 'tus-resumable': '1.0.0', 'upload-offset': '5' }, payload: 'abc' });
    expect(wrongOffset.statusCode).toBe(409);
    json(wrongOffset);
    expect(Object.keys(wrongOffset.json()).sort()).toEqual(['details', 'error', 'error_code', 'error_description', 'error_uri']);

    const anonymous = await h.app.inject({ method: 'PATCH', url, headers: { ...chunk, 'tus-resumable': '1.0.0', 'upload-offset': '0' }, payload: 'abc' });
    expect(anonymous.statusCode).toBe(401);
    json(anonymous);
    expect(anonymous.json()).toMatchObject({ error: 'unauthenticated', error_code: expect.any(Number) });
    // Another user's HEAD (a method the route table leaves out) answers like an upload that does not exist.
    const asOther = { authorization: `Bearer ${fuzzer.access_token}`, 'tus-resumable': '1.0.0' };
    const foreign = await h.app.inject({ method: 'HEAD', url, headers: asOther });
    const ghost = await h.app.inject({ method: 'HEAD', url: `/drive/v1/uploads/${ghostLike(up.body.resumable.params.key)}`, headers: asOther });
    expect([foreign.statusCode, ghost.statusCode]).toEqual([404, 404]);
    // Nothing was written by any of them.
    const still = await h.app.inject({ method: 'HEAD', url, headers: { ...auth, 'tus-resumable': '1.0.0' } });
    expect(still.headers['upload-offset']).toBe('0');
  });
});
