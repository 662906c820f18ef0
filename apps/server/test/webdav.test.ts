/**
 * WebDAV's own rules: app passwords (shown once, revocable, ending with sign-out everywhere; the sign-in password never
 * works), paths that cannot climb out of the account, one account never seeing another's, and PUT going through the
 * drive's quota and content store like any upload.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { blobTemporaries, names, startTestHaul, type TestHaul } from './helper.js';
import { appPassword, basic, dav, listen } from './webdav-helper.js';

describe('WebDAV', () => {
  let h: TestHaul;
  let base: string;
  let a: TokenResponse;
  let aAuth: string;
  beforeAll(async () => {
    // A small drive, so the quota is easy to reach.
    h = await startTestHaul({ defaultQuotaBytes: 64 * 1024 });
    base = await listen(h);
    a = await h.signUp();
    aAuth = (await appPassword(h, a)).basic;
    await h.putFile(a, '', 'secret.txt', 'A only');
  });
  afterAll(() => h.destroy());

  describe('app passwords', () => {
    it('are listed without the password, with the address to connect to and when last used', async () => {
      const who = await h.signUp();
      const made = await appPassword(h, who, 'Laptop');
      expect(made.password).toMatch(/^([a-z2-9]{4}-){6}[a-z2-9]{4}$/);
      const before = await h.api('GET', '/v1/user/app_passwords', who.access_token);
      expect(before.body).toMatchObject({ url: 'http://haul.test/dav/', username: made.email, available: true, premium_only: false });
      expect(before.body.app_passwords).toEqual([expect.objectContaining({ id: made.id, name: 'Laptop', last_used_time: '' })]);
      expect(JSON.stringify(before.body)).not.toContain(made.password);
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: made.basic, depth: '0' })).status).toBe(207);
      // Typed with capitals and without the dashes, it is the same password.
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: basic(made.email.toUpperCase(), made.password.replace(/-/g, '').toUpperCase()), depth: '0' })).status).toBe(207);
      const after = await h.api('GET', '/v1/user/app_passwords', who.access_token);
      expect(after.body.app_passwords[0].last_used_time).not.toBe('');
    });

    it('refuse the sign-in password, another account\'s name, and a revoked password', async () => {
      const who = await h.signUp();
      const made = await appPassword(h, who);
      const noAuth = await dav(base, 'PROPFIND', '/dav/', { depth: '0' });
      expect(noAuth.status).toBe(401);
      expect(noAuth.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: basic(made.email, 'correct horse'), depth: '0' })).status).toBe(401);
      const other = await h.api('GET', '/v1/user/me', a.access_token);
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: basic(other.body.email, made.password), depth: '0' })).status).toBe(401);
      expect((await h.api('DELETE', `/v1/user/app_passwords/${made.id}`, a.access_token)).status).toBe(404);
      expect((await h.api('DELETE', `/v1/user/app_passwords/${made.id}`, who.access_token)).status).toBe(200);
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: made.basic, depth: '0' })).status).toBe(401);
    });

    it('end with sign-out everywhere', async () => {
      const who = await h.signUp();
      const made = await appPassword(h, who);
      expect((await h.api('DELETE', '/v1/user/sessions', who.access_token)).status).toBe(200);
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: made.basic, depth: '0' })).status).toBe(401);
    });

    it('cannot be made by a third-party app or without a name', async () => {
      const who = await h.signUp();
      expect((await h.api('POST', '/v1/user/app_passwords', who.access_token, { name: '  ' })).status).toBe(400);
      expect((await h.api('POST', '/v1/user/app_passwords', undefined, { name: 'x' })).status).toBe(401);
    });
  });

  describe('paths', () => {
    it('never leave the account: dot segments, encoded slashes, NUL and fragments are refused', async () => {
      const b = await h.signUp();
      const bAuth = (await appPassword(h, b)).basic;
      for (const path of ['/dav/..', '/dav/%2e%2e/secret.txt', '/dav/x/../secret.txt', '/dav/.%2e/', '/dav/%2E%2E%2Fsecret.txt', '/dav/..%2f..%2fv1', '/dav/a%2fb', '/dav/x%00y', '/dav/%5c..%5csecret.txt', '/dav/frag/#x', '/dav/%E0%A4%A']) {
        const res = await dav(base, 'GET', path, { authorization: bAuth });
        expect(res.status, path).toBe(400);
        expect(res.text).not.toContain('A only');
      }
      // Doubled slashes read as one: the caller's own drive, not anyone else's.
      expect((await dav(base, 'GET', '//dav//secret.txt', { authorization: bAuth })).status).toBe(404);
      expect((await dav(base, 'GET', '/dav//secret.txt', { authorization: aAuth })).text).toBe('A only');
    });

    it('refuse a Destination outside /dav/ or climbing out of it', async () => {
      expect((await dav(base, 'PUT', '/dav/move-me.txt', { authorization: aAuth }, 'm')).status).toBe(201);
      for (const dest of [`${base}/dav/../v1/x`, '/v1/user/me', `${base}/dav/%2e%2e/x`, `${base}/other/x`]) {
        expect((await dav(base, 'MOVE', '/dav/move-me.txt', { authorization: aAuth, destination: dest })).status, dest).toBe(400);
      }
      expect((await dav(base, 'MOVE', '/dav/move-me.txt', { authorization: aAuth, destination: 'http://elsewhere.example/dav/x' })).status).toBe(502);
    });

    it('take a Destination only on the scheme, host and port the request came to (or the pinned public URL): else 502', async () => {
      expect((await dav(base, 'PUT', '/dav/origin.txt', { authorization: aAuth }, 'o')).status).toBe(201);
      const { port } = new URL(base);
      const otherPort = Number(port) === 65535 ? 1 : Number(port) + 1;
      for (const dest of [`http://127.0.0.1:${otherPort}/dav/x.txt`, `https://127.0.0.1:${port}/dav/x.txt`, `http://127.0.0.1/dav/x.txt`, `http://haul.test:8080/dav/x.txt`]) {
        expect((await dav(base, 'COPY', '/dav/origin.txt', { authorization: aAuth, destination: dest })).status, dest).toBe(502);
      }
      expect((await dav(base, 'COPY', '/dav/origin.txt', { authorization: aAuth, destination: `${base}/dav/same.txt` })).status).toBe(201);
      expect((await dav(base, 'COPY', '/dav/origin.txt', { authorization: aAuth, destination: 'HTTP://HAUL.TEST:80/dav/pinned.txt' })).status).toBe(201);
      // Behind a trusted proxy, the address the client used.
      const proxied = { authorization: aAuth, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'drive.example' };
      expect((await dav(base, 'COPY', '/dav/origin.txt', { ...proxied, destination: 'http://drive.example/dav/x.txt' })).status).toBe(502);
      expect((await dav(base, 'COPY', '/dav/origin.txt', { ...proxied, destination: 'https://drive.example:8443/dav/x.txt' })).status).toBe(502);
      expect((await dav(base, 'COPY', '/dav/origin.txt', { ...proxied, destination: 'https://drive.example/dav/proxied.txt' })).status).toBe(201);
      expect(await names(h, a.access_token)).toEqual(expect.arrayContaining(['same.txt', 'pinned.txt', 'proxied.txt']));
      expect(await names(h, a.access_token)).not.toContain('x.txt');
    });

    it('keeps every account to its own files', async () => {
      const b = await h.signUp();
      const bAuth = (await appPassword(h, b)).basic;
      const list = await dav(base, 'PROPFIND', '/dav/', { authorization: bAuth, depth: '1' });
      expect(list.status).toBe(207);
      expect(list.text).not.toContain('secret.txt');
      for (const [method, extra] of [['GET', {}], ['DELETE', {}], ['PROPFIND', { depth: '0' }], ['COPY', { destination: '/dav/mine.txt' }], ['MOVE', { destination: '/dav/mine.txt' }], ['PROPPATCH', {}], ['UNLOCK', { 'lock-token': '<urn:uuid:x>' }]] as const) {
        const res = await dav(base, method, '/dav/secret.txt', { authorization: bAuth, ...extra }, method === 'PROPPATCH' ? '<?xml version="1.0"?><propertyupdate xmlns="DAV:"><set><prop><x xmlns="urn:t">1</x></prop></set></propertyupdate>' : undefined);
        expect([404, 409], `${method}`).toContain(res.status);
      }
      expect(await names(h, a.access_token)).toContain('secret.txt');
    });
  });

  describe('PUT', () => {
    it('stores content once and shows the file in the drive', async () => {
      const body = 'the same bytes twice';
      expect((await dav(base, 'PUT', '/dav/one.txt', { authorization: aAuth }, body)).status).toBe(201);
      expect((await dav(base, 'PUT', '/dav/two.txt', { authorization: aAuth }, body)).status).toBe(201);
      expect(await names(h, a.access_token)).toEqual(expect.arrayContaining(['one.txt', 'two.txt']));
      // Recent is read from the events: an upload like any other.
      const events = (await h.api('GET', '/drive/v1/events', a.access_token)).body.events as { type: string; file_name: string }[];
      expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'TYPE_UPLOAD', file_name: 'one.txt' })]));
      const hash = await contentHashOf(body);
      expect(await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', hash).executeTakeFirst()).toEqual({ ref_count: 2 });
      const got = await dav(base, 'GET', '/dav/two.txt', { authorization: aAuth, range: 'bytes=4-7' });
      expect([got.status, got.text]).toEqual([206, 'same']);
      const etag = String(got.headers.etag);
      expect((await dav(base, 'GET', '/dav/two.txt', { authorization: aAuth, 'if-none-match': etag })).status).toBe(304);
    });

    it('refuses a body past the quota with 507 and keeps nothing, declared or not', async () => {
      const big = Buffer.alloc(100 * 1024, 7);
      const declared = await dav(base, 'PUT', '/dav/big.bin', { authorization: aAuth }, big);
      expect(declared.status).toBe(507);
      const chunked = await dav(base, 'PUT', '/dav/big2.bin', { authorization: aAuth, 'transfer-encoding': 'chunked' }, big);
      expect(chunked.status).toBe(507);
      const listed = await names(h, a.access_token);
      expect(listed).not.toContain('big.bin');
      expect(listed).not.toContain('big2.bin');
      expect(await h.ctx.db.selectFrom('blobs').select('hash').where('hash', '=', await contentHashOf(big)).executeTakeFirst()).toBeUndefined();
      expect(await blobTemporaries(h)).toEqual([]);
    });

    it('answers the quota (RFC 4331) and refuses depth infinity', async () => {
      const body = '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><quota-available-bytes/><quota-used-bytes/></prop></propfind>';
      const res = await dav(base, 'PROPFIND', '/dav/', { authorization: aAuth, depth: '0', 'content-type': 'application/xml' }, body);
      const used = Number(/quota-used-bytes>(\d+)</.exec(res.text)?.[1]);
      const available = Number(/quota-available-bytes>(\d+)</.exec(res.text)?.[1]);
      expect(used).toBeGreaterThan(0);
      expect(used + available).toBe(64 * 1024);
      const deep = await dav(base, 'PROPFIND', '/dav/', { authorization: aAuth, depth: 'infinity' });
      expect(deep.status).toBe(403);
      expect(deep.text).toContain('propfind-finite-depth');
      expect((await dav(base, 'PROPFIND', '/dav/', { authorization: aAuth, depth: '1', 'content-type': 'application/xml' }, '<propfind xmlns="DAV:"><prop>')).status).toBe(400);
    });

    it('keeps the file it overwrites (its id) and sends the previous content to the trash under a name of its own', async () => {
      expect((await dav(base, 'PUT', '/dav/draft.txt', { authorization: aAuth }, 'v1')).status).toBe(201);
      expect((await dav(base, 'PUT', '/dav/draft.txt', { authorization: aAuth }, 'v2')).status).toBe(204);
      expect((await dav(base, 'GET', '/dav/draft.txt', { authorization: aAuth })).text).toBe('v2');
      const rows = await h.ctx.db.selectFrom('files').select(['name', 'trashed']).where('user_id', '=', a.sub).where('name', 'like', 'draft%').execute();
      expect(rows.filter((r) => !r.trashed).map((r) => r.name)).toEqual(['draft.txt']);
      expect(rows.filter((r) => r.trashed).map((r) => r.name)).toEqual([expect.stringMatching(/^draft \(replaced \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d UTC\)\.txt$/)]);
    });
  });

  it("counts PUTs against the month's upload allowance and gives back what was not kept", async () => {
    const h2 = await startTestHaul({ monthlyUploadBytes: 1000 });
    try {
      const base2 = await listen(h2);
      const who = await h2.signUp();
      const { basic: auth } = await appPassword(h2, who);
      expect((await dav(base2, 'PUT', '/dav/a.bin', { authorization: auth }, Buffer.alloc(600, 1))).status).toBe(201);
      const over = await dav(base2, 'PUT', '/dav/b.bin', { authorization: auth }, Buffer.alloc(600, 2));
      expect(over.status).toBe(403);
      expect(JSON.parse(over.text).error).toBe('monthly_upload_size_exceeded');
      // A client that goes away mid-body was charged up front: the charge comes back, and no file is placed.
      const url = new URL(base2);
      const cut = request({ host: url.hostname, port: url.port, method: 'PUT', path: '/dav/cut.bin', headers: { authorization: auth, 'content-length': '300' } });
      cut.on('error', () => undefined);
      cut.write(Buffer.alloc(100, 4));
      await new Promise((r) => setTimeout(r, 200));
      cut.destroy();
      const uploaded = async () => JSON.stringify((await h2.api('GET', '/drive/v1/about?with_quotas=upload_size_month', who.access_token)).body).match(/"upload_size_month":\{[^}]*"usage":"(\d+)"/)?.[1];
      await expect.poll(uploaded).toBe('600');
      expect((await dav(base2, 'PUT', '/dav/c.bin', { authorization: auth }, Buffer.alloc(400, 3))).status).toBe(201);
      expect(await uploaded()).toBe('1000');
      expect(await names(h2, who.access_token)).not.toContain('cut.bin');
      expect(await names(h2, who.access_token)).toEqual(expect.arrayContaining(['a.bin', 'c.bin']));
    } finally {
      await h2.destroy();
    }
  });

  it('can be kept for premium accounts', async () => {
    const h2 = await startTestHaul({ webdavPremiumOnly: true });
    try {
      const base2 = await listen(h2);
      const who = await h2.signUp();
      const made = await appPassword(h2, who);
      expect((await h2.api('GET', '/v1/user/app_passwords', who.access_token)).body).toMatchObject({ available: false, premium_only: true });
      expect((await dav(base2, 'PROPFIND', '/dav/', { authorization: made.basic, depth: '0' })).status).toBe(403);
    } finally {
      await h2.destroy();
    }
  });
});
