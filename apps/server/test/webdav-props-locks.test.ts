/**
 * WebDAV state kept beside the files: dead properties follow every member of a copied or moved tree and end when the
 * files go to the trash, and expired locks neither block a write nor outlive the periodic sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { subtreeIds } from '../src/files/files.repository.js';
import { startJobs } from '../src/jobs.js';
import { sweepExpiredLocks } from '../src/webdav/locks.js';
import { resolve } from '../src/webdav/tree.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { appPassword, dav, listen } from './webdav-helper.js';

const XML = { 'content-type': 'application/xml; charset=utf-8' };
const propfindColor = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><Z:color xmlns:Z="urn:haul-test"/></D:prop></D:propfind>';

describe('WebDAV properties and locks', () => {
  const clock = new ManualClock(Date.now());
  let h: TestHaul;
  let base: string;
  let a: TokenResponse;
  let auth: string;
  beforeAll(async () => {
    h = await startTestHaul({ accessTokenTtlSeconds: 365 * 86400 }, clock);
    base = await listen(h);
    a = await h.signUp();
    auth = (await appPassword(h, a)).basic;
  });
  afterAll(() => h.destroy());

  const req = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => dav(base, method, path, { authorization: auth, ...headers }, body);
  const setColor = async (path: string, value: string) => {
    const body = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:haul-test"><D:set><D:prop><Z:color>${value}</Z:color></D:prop></D:set></D:propertyupdate>`;
    const res = await req('PROPPATCH', path, XML, body);
    expect(res.status, path).toBe(207);
    expect(res.text, path).toContain('200 OK');
  };
  /** The color property of `path`, or null when it has none. */
  const colorOf = async (path: string) => {
    const res = await req('PROPFIND', path, { ...XML, depth: '0' }, propfindColor);
    expect(res.status, path).toBe(207);
    return /<(?:\w+:)?color[^>]*>([^<]*)<\/(?:\w+:)?color>/.exec(res.text)?.[1] ?? null;
  };

  /** /<root>/ with a file, a folder, a folder inside it and files at each level; every member has its own color. */
  const MEMBERS = ['', '/top.txt', '/Sub', '/Sub/mid.txt', '/Sub/Deep', '/Sub/Deep/leaf.txt'];
  const makeTree = async (root: string) => {
    for (const m of MEMBERS) {
      const res = m.endsWith('.txt') ? await req('PUT', `/dav/${root}${m}`, {}, `bytes of ${m}`) : await req('MKCOL', `/dav/${root}${m}`);
      expect(res.status, m).toBe(201);
      await setColor(`/dav/${root}${m}`, `color of ${m || 'root'}`);
    }
  };

  describe('dead properties', () => {
    it('a COPY of a folder carries those of every member, each on its own copy', async () => {
      await makeTree('Tree');
      expect((await req('COPY', '/dav/Tree', { destination: '/dav/Copy' })).status).toBe(201);
      for (const m of MEMBERS) expect(await colorOf(`/dav/Copy${m}`), m).toBe(`color of ${m || 'root'}`);
      // The copies' properties are their own: changing one leaves the source as it was.
      await setColor('/dav/Copy/Sub/Deep/leaf.txt', 'changed');
      expect(await colorOf('/dav/Tree/Sub/Deep/leaf.txt')).toBe('color of /Sub/Deep/leaf.txt');
      expect(await colorOf('/dav/Copy/Sub/Deep/leaf.txt')).toBe('changed');
    });

    it('a COPY with depth 0 carries only the folder\'s own', async () => {
      expect((await req('COPY', '/dav/Tree', { destination: '/dav/Shallow', depth: '0' })).status).toBe(201);
      expect(await colorOf('/dav/Shallow')).toBe('color of root');
      expect((await req('PROPFIND', '/dav/Shallow/top.txt', { depth: '0' })).status).toBe(404);
    });

    it('a MOVE keeps those of every member', async () => {
      await makeTree('Moving');
      expect((await req('MOVE', '/dav/Moving', { destination: '/dav/Moved' })).status).toBe(201);
      for (const m of MEMBERS) expect(await colorOf(`/dav/Moved${m}`), m).toBe(`color of ${m || 'root'}`);
      expect((await req('PROPFIND', '/dav/Moving', { depth: '0' })).status).toBe(404);
    });

    it('a DELETE ends those of every member as they go to the trash: nothing comes back at the same paths', async () => {
      await makeTree('Doomed');
      const root = await resolve(h.ctx.db, a.sub, ['Doomed']);
      const ids = await subtreeIds(h.ctx.db, a.sub, [root!.id]);
      expect(ids).toHaveLength(MEMBERS.length);
      const propsOfDoomed = () => h.ctx.db.selectFrom('dav_props').select('file_id').where('file_id', 'in', ids).execute();
      expect(await propsOfDoomed()).toHaveLength(MEMBERS.length);
      expect((await req('DELETE', '/dav/Doomed')).status).toBe(204);
      // Kept past the trash they would be storage outside the quota.
      expect(await propsOfDoomed()).toEqual([]);
      // New resources at the same paths start bare.
      for (const m of MEMBERS) {
        const res = m.endsWith('.txt') ? await req('PUT', `/dav/Doomed${m}`, {}, 'new') : await req('MKCOL', `/dav/Doomed${m}`);
        expect(res.status, m).toBe(201);
        expect(await colorOf(`/dav/Doomed${m}`), m).toBeNull();
      }
      expect((await h.api('PATCH', '/drive/v1/files/trash:empty', a.access_token)).status).toBe(200);
      expect(await h.ctx.db.selectFrom('files').select('id').where('id', 'in', ids).execute()).toEqual([]);
      expect(await propsOfDoomed()).toEqual([]);
    });
  });

  describe('expired locks', () => {
    const lockBody = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>test</D:owner></D:lockinfo>';
    const lock = async (path: string, timeout: string) => {
      const res = await req('LOCK', path, { ...XML, timeout, depth: 'infinity' }, lockBody);
      expect([200, 201]).toContain(res.status);
      return /<([^>]+)>/.exec(String(res.headers['lock-token']))![1]!;
    };
    const lockRow = (token: string) => h.ctx.db.selectFrom('dav_locks').select('token').where('token', '=', token).executeTakeFirst();

    it('never block a write once past their timeout, even before the sweep, and cannot be refreshed or unlocked', async () => {
      expect((await req('MKCOL', '/dav/Locked')).status).toBe(201);
      const token = await lock('/dav/Locked', 'Second-1');
      expect((await req('PUT', '/dav/Locked/a.txt', {}, 'a')).status).toBe(423);
      clock.advance(2000);
      expect(await lockRow(token)).toBeDefined();
      expect((await req('PUT', '/dav/Locked/a.txt', {}, 'a')).status).toBe(201);
      expect((await req('DELETE', '/dav/Locked/a.txt')).status).toBe(204);
      const found = await req('PROPFIND', '/dav/Locked', { ...XML, depth: '0' }, '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>');
      expect(found.text).not.toContain(token);
      expect((await req('LOCK', '/dav/Locked', { if: `(<${token}>)`, timeout: 'Second-600' })).status).toBe(412);
      expect((await req('UNLOCK', '/dav/Locked', { 'lock-token': `<${token}>` })).status).toBe(409);
      // Another client may lock it now.
      const next = await lock('/dav/Locked', 'Second-600');
      expect((await req('UNLOCK', '/dav/Locked', { 'lock-token': `<${next}>` })).status).toBe(204);
    });

    it('are swept by the periodic jobs, of every account, and live ones are kept', async () => {
      const b = await h.signUp();
      const bAuth = (await appPassword(h, b)).basic;
      expect((await dav(base, 'PUT', '/dav/b.txt', { authorization: bAuth }, 'b')).status).toBe(201);
      const bRes = await dav(base, 'LOCK', '/dav/b.txt', { authorization: bAuth, ...XML, timeout: 'Second-1' }, lockBody);
      const bToken = /<([^>]+)>/.exec(String(bRes.headers['lock-token']))![1]!;
      expect((await req('PUT', '/dav/swept.txt', {}, 's')).status).toBe(201);
      const expiring = await lock('/dav/swept.txt', 'Second-1');
      const live = await lock('/dav/Tree', 'Second-3600');
      clock.advance(2000);
      // Two processes sweeping at once: each lock goes once, and the live one stays.
      const swept = await Promise.all([sweepExpiredLocks(h.ctx.db, clock.now()), sweepExpiredLocks(h.ctx.db, clock.now())]);
      expect(swept[0]! + swept[1]!).toBeGreaterThanOrEqual(2);
      expect(await lockRow(expiring)).toBeUndefined();
      expect(await lockRow(bToken)).toBeUndefined();
      expect(await lockRow(live)).toBeDefined();

      // The jobs run the sweep.
      const later = await lock('/dav/swept.txt', 'Second-1');
      clock.advance(2000);
      const stop = startJobs(h.ctx, h.app.log);
      try {
        await expect.poll(() => lockRow(later), { timeout: 20_000 }).toBeUndefined();
      } finally {
        stop();
      }
      expect(await lockRow(live)).toBeDefined();
      expect((await req('PUT', '/dav/Tree/top.txt', {}, 'x')).status).toBe(423);
    });
  });
});
