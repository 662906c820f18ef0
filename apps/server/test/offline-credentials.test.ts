import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { SEALED_PARAM } from '../src/offline/offline-credentials.js';
import { startTestHaul, type TestHaul, until } from './helper.js';

const USER = 'reader';
const PASSWORD = 'pa55-S3cret-w0rd';
const COOKIE = 'session=C00KIE-9f3a7';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
/** What must never be seen outside the request to the origin. */
const SECRETS = [PASSWORD, COOKIE, 'C00KIE-9f3a7', BASIC];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}


describe('cloud download with a user name, password and headers', () => {
  const content = randomBytes(200_000);
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  let otherBase = '';
  let hold: (() => void) | null = null;
  // Serves only to Basic reader:… with the session cookie; /hop redirects to another origin, /held waits to be let go.
  const origin = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.push({ path, headers: req.headers });
    if (path === '/hop') {
      res.writeHead(302, { location: `${otherBase}/landed.bin` });
      return res.end();
    }
    if (req.headers.authorization !== `Basic ${BASIC}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="files"' });
      return res.end();
    }
    if (!(req.headers.cookie ?? '').split(/;\s*/).includes(COOKIE)) {
      res.writeHead(403);
      return res.end();
    }
    const send = () => {
      res.writeHead(200, { 'content-length': content.length, 'content-type': 'application/octet-stream' });
      res.end(content);
    };
    if (path === '/held.bin') hold = send;
    else send();
  });
  const other = createServer((req, res) => {
    seen.push({ path: `other:${req.url}`, headers: req.headers });
    res.writeHead(200, { 'content-length': 5 });
    res.end('other');
  });
  const lines: string[] = [];
  let base = '';
  let h: TestHaul;
  let t: TokenResponse;
  const credentials = { username: USER, password: PASSWORD, headers: { Cookie: COOKIE, Referer: 'https://example.com/page' } };
  const add = (body: Record<string, unknown>) => h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', parent_id: '', ...body });
  const task = (id: string) => h.api('GET', `/drive/v1/tasks/${id}`, t.access_token);
  const finished = (id: string) => until(() => task(id).then((r) => r.body), (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR');
  const expectNoSecret = (what: string, text: string) => {
    for (const s of SECRETS) expect(text.includes(s), `${what} shows ${s}`).toBe(false);
  };

  beforeAll(async () => {
    base = await listen(origin);
    otherBase = await listen(other);
    h = await startTestHaul({ allowPrivateNetwork: true, logLevel: 'debug' }, undefined, { logStream: { write: (l) => void lines.push(l) } });
    h.offline.start();
    t = await h.signUp();
  });
  afterAll(async () => {
    origin.close();
    other.close();
    await h.destroy().catch(() => undefined);
  });

  it('fetches from an origin that demands them, under the chosen name, and shows them nowhere', async () => {
    const res = await add({ url: { url: `${base}/held.bin` }, name: 'report/final.bin', credentials });
    expect(res.status).toBe(200);
    expectNoSecret('the answer', JSON.stringify(res.body));
    const id = res.body.task.id as string;
    // While it runs: the row holds them sealed (no plain text), the listing and the task do not hold them at all.
    await until(async () => hold, (x) => x !== null);
    const row = await h.ctx.db.selectFrom('tasks').select('params').where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.params)[SEALED_PARAM]).toMatch(/^v1\./);
    expectNoSecret('the task row', row.params);
    const listing = await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token);
    expect(listing.body.tasks.map((x: { id: string }) => x.id)).toContain(id);
    expectNoSecret('the task listing', JSON.stringify(listing.body));
    expect(JSON.stringify(listing.body)).not.toContain(SEALED_PARAM);
    expect(JSON.stringify((await task(id)).body)).not.toContain(SEALED_PARAM);
    hold!();

    const done = await finished(id);
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
    const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body;
    // The chosen name, made valid (a slash cannot be in a name).
    expect(file).toMatchObject({ name: 'report_final.bin', size: String(content.length) });
    const held = seen.find((s) => s.path === '/held.bin' && s.headers.authorization)!;
    expect(held.headers).toMatchObject({ authorization: `Basic ${BASIC}`, cookie: COOKIE, referer: 'https://example.com/page' });
    // Ended: dropped from the row too.
    const after = await h.ctx.db.selectFrom('tasks').select('params').where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(after.params)[SEALED_PARAM]).toBeUndefined();
    expectNoSecret('the finished task', JSON.stringify(done));
    expectNoSecret('the file', JSON.stringify(file));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret('the log', lines.join('\n'));
  });

  it('without them the origin refuses, and the task fails saying so', async () => {
    const res = await add({ url: { url: `${base}/plain.bin` } });
    const done = await finished(res.body.task.id);
    expect(done.phase).toBe('PHASE_TYPE_ERROR');
  });

  it('does not carry Authorization or Cookie over a redirect to another origin, and drops them on failure', async () => {
    const res = await add({ url: { url: `${base}/hop` }, credentials });
    const done = await finished(res.body.task.id);
    expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
    const hop = seen.find((s) => s.path === '/hop')!;
    expect(hop.headers).toMatchObject({ authorization: `Basic ${BASIC}`, cookie: COOKIE });
    const landed = seen.find((s) => s.path === 'other:/landed.bin')!;
    expect(landed.headers.authorization).toBeUndefined();
    expect(landed.headers.cookie).toBeUndefined();
    // The Referer is not origin-bound.
    expect(landed.headers.referer).toBe('https://example.com/page');

    // A failed task keeps nothing sealed (a retry is given them again).
    const failed = await add({ url: { url: `${otherBase}/gone` }, credentials: { headers: { Authorization: 'Bearer t0ken-xyz' } } });
    other.removeAllListeners('request');
    other.on('request', (_req, res) => res.writeHead(404).end());
    const fin = await finished(failed.body.task.id);
    expect(fin.phase).toBe('PHASE_TYPE_ERROR');
    const row = await h.ctx.db.selectFrom('tasks').select('params').where('id', '=', failed.body.task.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.params)[SEALED_PARAM]).toBeUndefined();
    expect(row.params).not.toContain('t0ken-xyz');
  });

  it('refuses a header outside the allow-list, or a bad value, with a 400 and makes nothing', async () => {
    const before = (await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token)).body.tasks.length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ headers: { Host: 'evil.example' } }, /"Host" cannot be sent/],
      [{ headers: { 'Proxy-Authorization': 'Basic x' } }, /cannot be sent/],
      [{ headers: { Cookie: 'a=1\r\nX-Evil: 1' } }, /one line/],
      [{ username: 'a:b', password: 'x' }, /cannot contain ":"/],
      [{ username: 'a', password: 'b', headers: { Authorization: 'Bearer x' } }, /not both/],
      [{ headers: { Referer: 'javascript:alert(1)' } }, /Referer/],
    ];
    for (const [c, message] of cases) {
      const res = await add({ url: { url: `${base}/x.bin` }, credentials: c });
      expect(res.status, JSON.stringify(c)).toBe(400);
      expect(res.body.error).toBe('invalid_argument');
      expect(res.body.error_description).toMatch(message);
    }
    const magnet = await add({ url: { url: 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567' }, credentials: { headers: { Cookie: 'a=1' } } });
    expect(magnet.status).toBe(400);
    expect(magnet.body.error_description).toMatch(/http and https links only/);
    expect((await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token)).body.tasks.length).toBe(before);
  });
});
