/**
 * Shared pieces of the route walks, which walk every registered route (h.routes, not a hand-picked list), so a route
 * added later is covered without edits. One class per test file:
 * 1. route-walk-auth.test.ts: without a token every route answers 401 unless it is listed as public;
 * 2. route-walk-isolation.test.ts: another user's ids answer exactly like ids that do not exist, and change nothing;
 * 3. route-walk-fuzz.test.ts: hostile values in every declared field never cause a 5xx, and every 4xx is the error object.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { RouteEntry } from '../src/app.js';
import type { TestHaul } from './helper.js';

/** Routes that answer without a token, each with why. Anything else must answer 401 unauthenticated. */
export const PUBLIC: Record<string, string> = {
  'POST /v1/auth/signup': 'creates an account',
  'GET /v1/setup': 'says whether a fresh install waits for its operator',
  'POST /v1/setup': "creates the operator's account on a fresh install, once",
  'POST /v1/auth/signin/token': 'signs in with a mailed code (the code is the proof)',
  'POST /v1/auth/signin': 'trades a password for tokens',
  'POST /v1/auth/passkey/options': 'hands out a sign-in challenge, before any session',
  'POST /v1/auth/passkey/signin': "the passkey's signature over a server-kept challenge is the credential",
  'POST /v1/auth/token': 'trades a refresh token for tokens',
  'POST /v1/auth/revoke': 'the refresh token in the body is the credential',
  'GET /.well-known/oauth-authorization-server': 'the authorization server metadata: the same for everyone',
  'POST /v1/auth/token/introspect': 'an app authenticates with its credentials, or a token holder with its bearer token, after the body is read',
  'POST /v1/auth/verification': 'mails a code for sign-up or a forgotten password, before any session (usages about the account check the token themselves)',
  'POST /v1/auth/verification/verify': 'the mailed code is the credential',
  'POST /v1/auth/reset': 'the verification token from the mailed code is the credential',
  'POST /v1/auth/device/code': 'a device asks to be signed in; it gets nothing until a signed-in person approves its code',
  'GET /v1/auth/providers': 'the sign-in page lists the providers to sign in with',
  'POST /v1/auth/provider/uri': 'starts a sign-in at a provider, before any session',
  'POST /v1/auth/provider/token': "the provider's code (with the server-kept state) is the credential",
  'POST /v1/auth/signin/with/provider': 'the provider token is the credential',
  'GET /drive/v1/content/:id': 'signed download link: the signature is the permission',
  'GET /admin/v1/report-content/:id': "an operator's signed link to a reported file: the signature, the operator and the open report are the permission",
  'GET /drive/v1/thumbnails/:fileId': 'signed media link',
  'GET /drive/v1/media/:fileId/origin': 'signed media link',
  'GET /drive/v1/media/:fileId/:mediaId/index.m3u8': 'signed media link',
  'GET /drive/v1/media/:fileId/:mediaId/:segment': 'signed media link',
  'GET /drive/v1/subtitles/:fileId/:trackId': 'signed media link over the video and the track',
  'GET /drive/v1/subtitles/:fileId/:trackId/burned': 'signed media link over the video and the burned-in track',
  'GET /drive/v1/tasks/:id/play/:index/:name': 'signed link to a file of a torrent still downloading',
  'GET /drive/v1/share': 'public share page',
  'GET /drive/v1/share/file_info': 'public share page',
  'GET /drive/v1/share/content/:id': 'signed share content link',
  'POST /drive/v1/share/zip': 'a zip link of a share, for anyone the share is open to (as the share page)',
  'GET /drive/v1/zip/:name': 'signed zip link: the signature over the sealed selection is the permission',
  'GET /drive/v1/share/media/:fileId/:mediaId/index.m3u8': 'signed share media link',
  'GET /drive/v1/share/media/:fileId/:mediaId/:segment': 'signed share media link',
  'POST /v1/telegram/webhook/:secret': "Telegram posts the bot's updates: the secret in the path and Telegram's secret-token header are the credential",
  'GET /drive/v1/share/code': 'resolves a typed share code for the public share page',
  'GET /v1/site': "the install's name, for the sign-in and welcome pages",
  'POST /drive/v1/share/report': 'a share visitor reports the share to the operator (as open to them as the share itself)',
  'POST /drive/v1/url::check': 'the URL checker is a public page: a visitor checks a link within a per-network limit',
  // tus does its own auth, after its protocol checks (412, 400, 404 before the token): every method is listed, and
  // the isolation walk (route-walk-isolation.test.ts) still calls these routes as another user with the owner's upload id.
  '* /drive/v1/uploads': 'tus: protocol errors come before its own token check',
  '* /drive/v1/uploads/*': 'tus: protocol errors come before its own token check',
  'GET /vip/v1/pay/products': 'the goods on sale: the same for everyone',
  'POST /vip/v1/pay/products': 'the goods on sale: the same for everyone',
  'GET /vip/v1/pay/settings': 'the payment providers: the same for everyone',
  'POST /vip/v1/pay/webhook/:provider': "a provider's notification: its signature is the credential",
  'POST /drive/v1/stats': 'usage counts from anyone (share visitors too): nothing about who is kept',
  'GET /': 'redirect to the web app',
  'GET /api/openapi.json': 'the API reference: the same for everyone',
  'GET /api/docs': 'the API reference page',
  'GET /api/docs/json': 'the API reference document',
  'GET /api/docs/yaml': 'the API reference document',
  'GET /api/docs/static/index.html': 'the API reference page',
  'GET /api/docs/static/swagger-initializer.js': 'the API reference page',
  'GET /api/docs/static/*': "the reference page's scripts and styles",
  'GET /healthz': 'liveness for load balancers and orchestrators: says nothing but "ok"',
  'GET /readyz': 'readiness for load balancers: names a failing dependency, nothing more',
  'GET /metrics': 'Prometheus: HAUL_METRICS_TOKEN when set, else this machine only (test/ops.test.ts covers both)',
};

/** Values the server needs that a schema cannot say (a plain string that must be one of a few words). */
export const HINTS: Record<string, unknown> = { name: 'walk', kind: 'drive#folder', share_to: 'publiclink', phase: 'PHASE_TYPE_PAUSED', phases: 'PHASE_TYPE_ERROR', type: 'offline', email: 'walk@example.com', password: 'correct horse', grant_type: 'refresh_token' };

export type Kind = 'file' | 'share' | 'task' | 'upload' | 'event';
export type Ids = Record<Kind, string[]>;
export type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; const?: unknown; enum?: unknown[]; minimum?: number; minLength?: number; pattern?: string };
export type Req = { params: Record<string, string>; query: Record<string, unknown>; body?: unknown; rawBody?: string; rawPath?: boolean };

/** A random id-shaped string that names nothing. */
export const randomId = () => randomBytes(15).toString('base64url');
const pick = (chars: string) => chars[randomInt(chars.length)]!;
/** A random id of the same shape (length, character classes) as `id`, so patterns treat both alike. */
export const ghostLike = (id: string) =>
  id.replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz')).replace(/[A-Z]/g, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).replace(/[0-9]/g, () => pick('0123456789'));
/** The route as `METHOD /url`, the key PUBLIC uses. */
export const name = (r: RouteEntry) => `${r.method} ${r.url}`;
/** Why `r` answers without a token, if it is listed public (by method or for every method). */
export const publicEntry = (r: RouteEntry) => PUBLIC[name(r)] ?? PUBLIC[`* ${r.url}`];
/** Routes that check a token themselves after other checks (tus): public to the no-token walk, not to isolation. */
export const ownAuth = (r: RouteEntry) => !PUBLIC[name(r)] && !!PUBLIC[`* ${r.url}`];
/** The path parameter names of a route url (`*` for a wildcard; `::` is a literal colon). */
export const pathParams = (url: string) => [...url.replace(/::/g, '').matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
/** The declared schema of one part of a route's input. */
export const schemaOf = (r: RouteEntry, part: 'querystring' | 'body' | 'params') => r.schema?.[part] as Schema | undefined;
/** Whether a parsed body is the API's error object. */
export const isErrorObject = (b: any) => !!b && typeof b.error === 'string' && typeof b.error_code === 'number';

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
export function sample(s: Schema, field: string, idFor: (field: string) => string | null, top = false): unknown {
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
export function build(r: RouteEntry, idFor: (kind: Kind, field: string) => string): Req {
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
export async function send(h: TestHaul, r: RouteEntry, req: Req, token?: string) {
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
