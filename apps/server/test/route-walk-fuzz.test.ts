/**
 * Route walk, class 3: hostile values in every declared field (path, query, body at any depth) never cause a 5xx,
 * and every 4xx is the error object. The hostile values and input slots are only used here, so they live here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import type { RouteEntry } from '../src/app.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { build, isErrorObject, name, pathParams, schemaOf, send, type Kind, type Req, type Schema } from './route-walk.js';

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

describe('route walk: hostile input', () => {
  let h: TestHaul;
  // The account is made up front: sign-ups are limited per network, and the fuzz walk spends that allowance.
  let fuzzer: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    fuzzer = await h.signUp();
  });
  afterAll(() => h.destroy());

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
    // Thousands of requests over every route: about 50 s on a busy two-core machine, and each new route adds to it.
  }, 180_000);
});
