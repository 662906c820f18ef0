/**
 * Route walk, class 2: another user's ids answer exactly like ids that do not exist, and change nothing of the owner's.
 * The tus error-object case lives here too: it ends by checking that another user's HEAD answers like a missing upload.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import type { RouteEntry } from '../src/app.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { build, ghostLike, name, ownAuth, publicEntry, send, type Ids, type Kind } from './route-walk.js';

describe('route walk: isolation', () => {
  let h: TestHaul;
  // Every account is made up front, as sign-ups are limited per network. `other` is the stranger to tusUser's upload,
  // kept apart from b so the tus case does not depend on what the walk did to b's sessions.
  let a: TokenResponse, b: TokenResponse, tusUser: TokenResponse, other: TokenResponse;
  const bEmail = `walker${randomBytes(4).toString('hex')}@example.com`;
  beforeAll(async () => {
    h = await startTestHaul();
    // The walk's cloud download must run to its end here (a process that only serves would leave it queued).
    h.offline.start();
    [a, b, tusUser, other] = [await h.signUp(), await h.signUp(bEmail), await h.signUp(), await h.signUp()];
  });
  afterAll(() => h.destroy());

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
    const asOther = { authorization: `Bearer ${other.access_token}`, 'tus-resumable': '1.0.0' };
    const foreign = await h.app.inject({ method: 'HEAD', url, headers: asOther });
    const ghost = await h.app.inject({ method: 'HEAD', url: `/drive/v1/uploads/${ghostLike(up.body.resumable.params.key)}`, headers: asOther });
    expect([foreign.statusCode, ghost.statusCode]).toEqual([404, 404]);
    // Nothing was written by any of them.
    const still = await h.app.inject({ method: 'HEAD', url, headers: { ...auth, 'tus-resumable': '1.0.0' } });
    expect(still.headers['upload-offset']).toBe('0');
  });
});
