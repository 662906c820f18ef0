/**
 * What sync clients rely on: modified times they set (X-OC-Mtime, PROPPATCH of getlastmodified, lastmodified and
 * Win32LastModifiedTime), checksums (oc:checksums, OC-Checksum, X-Recalculate-Hash), ids (oc:fileid) and ETags that
 * follow content, an overwrite that keeps the file, and a client hanging up mid-upload, which is no server fault.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { appPassword, dav, listen } from './webdav-helper.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const OC = 'xmlns:oc="http://owncloud.org/ns"';
const patchBody = (props: string, op = 'set') => `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:${op}><D:prop>${props}</D:prop></D:${op}></D:propertyupdate>`;

describe('WebDAV for sync clients', () => {
  let h: TestHaul;
  let base: string;
  let a: TokenResponse;
  let auth: string;
  const lines: string[] = [];
  beforeAll(async () => {
    h = await startTestHaul({ logLevel: 'info' }, undefined, { logStream: { write: (line: string) => void lines.push(line) } });
    base = await listen(h);
    a = await h.signUp();
    auth = (await appPassword(h, a)).basic;
  });
  afterAll(() => h.destroy());

  const fileNamed = async (name: string) => {
    const list = await h.api('GET', '/drive/v1/files?parent_id=', a.access_token);
    return list.body.files.find((f: { name: string }) => f.name === name);
  };
  const propfind = async (path: string, props: string) =>
    (await dav(base, 'PROPFIND', path, { authorization: auth, depth: '0' }, `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" ${OC} xmlns:Z="urn:schemas-microsoft-com:"><D:prop>${props}</D:prop></D:propfind>`)).text;
  const proppatch = (path: string, body: string) => dav(base, 'PROPPATCH', path, { authorization: auth }, body);

  describe('modified times', () => {
    it('takes X-OC-Mtime on PUT, answers it accepted, and shows it as the files API\'s modified_time', async () => {
      const put = await dav(base, 'PUT', '/dav/m.txt', { authorization: auth, 'x-oc-mtime': '1700000000' }, 'hello');
      expect(put.status).toBe(201);
      expect(put.headers['x-oc-mtime']).toBe('accepted');
      expect((await fileNamed('m.txt')).modified_time).toBe('2023-11-14T22:13:20.000Z');
      expect(await propfind('/dav/m.txt', '<D:getlastmodified/>')).toContain('<D:getlastmodified>Tue, 14 Nov 2023 22:13:20 GMT</D:getlastmodified>');
      // An overwrite takes the new time; a header that is no time is refused.
      expect((await dav(base, 'PUT', '/dav/m.txt', { authorization: auth, 'x-oc-mtime': '1600000000' }, 'hullo')).headers['x-oc-mtime']).toBe('accepted');
      expect((await fileNamed('m.txt')).modified_time).toBe('2020-09-13T12:26:40.000Z');
      expect((await dav(base, 'PUT', '/dav/m.txt', { authorization: auth, 'x-oc-mtime': 'yesterday' }, 'x')).status).toBe(400);
    });

    it('sets it with PROPPATCH of getlastmodified, lastmodified and Win32LastModifiedTime (200), and refuses a value that is no time', async () => {
      await dav(base, 'PUT', '/dav/p.txt', { authorization: auth }, 'p');
      let res = await proppatch('/dav/p.txt', patchBody('<D:getlastmodified>Wed, 01 Jan 2020 00:00:00 GMT</D:getlastmodified>'));
      expect(res.status).toBe(207);
      expect(res.text).toContain('200 OK');
      expect((await fileNamed('p.txt')).modified_time).toBe('2020-01-01T00:00:00.000Z');
      // rclone and ownCloud's own clients: DAV:lastmodified in unix seconds.
      res = await proppatch('/dav/p.txt', patchBody('<lastmodified xmlns="DAV:">1500000000</lastmodified>'));
      expect(res.text).toContain('200 OK');
      expect((await fileNamed('p.txt')).modified_time).toBe('2017-07-14T02:40:00.000Z');
      // Windows sets its four properties together after an upload.
      const win = '<Z:Win32LastModifiedTime xmlns:Z="urn:schemas-microsoft-com:">Sat, 02 Mar 2019 10:00:00 GMT</Z:Win32LastModifiedTime><Z:Win32FileAttributes xmlns:Z="urn:schemas-microsoft-com:">00000020</Z:Win32FileAttributes>';
      res = await proppatch('/dav/p.txt', patchBody(win));
      expect(res.text).toContain('200 OK');
      expect(res.text).not.toMatch(/40\d|424/);
      expect((await fileNamed('p.txt')).modified_time).toBe('2019-03-02T10:00:00.000Z');
      const found = await propfind('/dav/p.txt', '<Z:Win32LastModifiedTime/><Z:Win32FileAttributes/>');
      expect(found).toContain('Sat, 02 Mar 2019 10:00:00 GMT</Win32LastModifiedTime>');
      expect(found).toContain('00000020');
      // All or nothing: a time that is no time is 409, the rest 424, and nothing changes.
      res = await proppatch('/dav/p.txt', patchBody('<D:getlastmodified>soon</D:getlastmodified><x:color xmlns:x="urn:x">red</x:color>'));
      expect(res.text).toMatch(/<D:getlastmodified\/><\/D:prop><D:status>HTTP\/1.1 409/);
      expect(res.text).toMatch(/<color xmlns="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 424/);
      expect((await fileNamed('p.txt')).modified_time).toBe('2019-03-02T10:00:00.000Z');
      expect(await propfind('/dav/p.txt', '<x:color xmlns:x="urn:x"/>')).toContain('404');
      // Other live properties stay protected.
      expect((await proppatch('/dav/p.txt', patchBody('<D:getetag>"x"</D:getetag>'))).text).toContain('403');
    });
  });

  describe('checksums, ids and ETags', () => {
    it('exposes oc:checksums (SHA-1), oc:fileid and oc:id, and an ETag and checksum that change with the content only', async () => {
      const put = await dav(base, 'PUT', '/dav/c.txt', { authorization: auth, 'oc-checksum': `SHA1:${sha1('abc')}` }, 'abc');
      expect(put.status).toBe(201);
      const id = (await fileNamed('c.txt')).id;
      expect(put.headers['oc-fileid']).toBe(id);
      const props = '<oc:checksums/><oc:fileid/><oc:id/><D:getetag/>';
      const first = await propfind('/dav/c.txt', props);
      expect(first).toContain(`<oc:checksum>SHA1:${sha1('abc')}</oc:checksum>`);
      expect(first).toContain(`<oc:fileid xmlns:oc="http://owncloud.org/ns">${id}</oc:fileid>`);
      expect(first).toContain(`>${id}</oc:id>`);
      const etag = (t: string) => /<D:getetag>([^<]+)</.exec(t)![1];
      // A new time alone changes neither.
      await proppatch('/dav/c.txt', patchBody('<D:getlastmodified>Wed, 01 Jan 2020 00:00:00 GMT</D:getlastmodified>'));
      expect(etag(await propfind('/dav/c.txt', props))).toBe(etag(first));
      // Same size, other bytes: new ETag and checksum, same id.
      expect((await dav(base, 'PUT', '/dav/c.txt', { authorization: auth }, 'abd')).status).toBe(204);
      const second = await propfind('/dav/c.txt', props);
      expect(etag(second)).not.toBe(etag(first));
      expect(second).toContain(`SHA1:${sha1('abd')}`);
      expect(second).toContain(`${id}</oc:fileid>`);
      // A client's checksum that agrees is accepted along with a time (recent rclone sends both); one that does not is 409.
      const agree = await proppatch('/dav/c.txt', patchBody(`<lastmodified xmlns="DAV:">1500000000</lastmodified><oc:checksums ${OC}><oc:checksum>SHA1:${sha1('abd')}</oc:checksum></oc:checksums>`));
      expect(agree.text).not.toMatch(/409|424|403/);
      const contradict = await proppatch('/dav/c.txt', patchBody(`<oc:checksums ${OC}><oc:checksum>SHA1:${sha1('zzz')}</oc:checksum></oc:checksums>`));
      expect(contradict.text).toContain('409');
    });

    it('refuses a body that does not match its OC-Checksum with 400 and stores nothing', async () => {
      const wrong = { authorization: auth, 'oc-checksum': `SHA1:${sha1('something else')}` };
      expect((await dav(base, 'PUT', '/dav/new.txt', wrong, 'data')).status).toBe(400);
      expect((await dav(base, 'GET', '/dav/new.txt', { authorization: auth })).status).toBe(404);
      await dav(base, 'PUT', '/dav/kept.txt', { authorization: auth }, 'old');
      expect((await dav(base, 'PUT', '/dav/kept.txt', wrong, 'new')).status).toBe(400);
      expect((await dav(base, 'GET', '/dav/kept.txt', { authorization: auth })).text).toBe('old');
      // Types Haul does not compute are not checked.
      expect((await dav(base, 'PUT', '/dav/md5.txt', { authorization: auth, 'oc-checksum': 'MD5:00000000000000000000000000000000' }, 'x')).status).toBe(201);
    });

    it('computes the SHA-1 of content that came another way when asked (X-Recalculate-Hash)', async () => {
      await h.putFile(a, '', 'api.txt', 'from the web app');
      expect(await propfind('/dav/api.txt', '<oc:checksums/>')).toContain('404');
      const res = await dav(base, 'PATCH', '/dav/api.txt', { authorization: auth, 'x-recalculate-hash': 'sha1' });
      expect(res.status).toBe(200);
      expect(res.headers['oc-checksum']).toBe(`SHA1:${sha1('from the web app')}`);
      expect(await propfind('/dav/api.txt', '<oc:checksums/>')).toContain(`SHA1:${sha1('from the web app')}`);
      expect((await dav(base, 'PATCH', '/dav/api.txt', { authorization: auth }, 'x')).status).toBe(405);
    });
  });

  describe('overwrite', () => {
    it('keeps the file: its id, star and dead properties; the previous content is in the trash, restorable', async () => {
      await dav(base, 'PUT', '/dav/o.txt', { authorization: auth }, 'version one');
      const before = await fileNamed('o.txt');
      expect((await h.api('POST', '/drive/v1/files:star', a.access_token, { ids: [before.id] })).status).toBe(200);
      await proppatch('/dav/o.txt', patchBody('<x:tag xmlns:x="urn:x">blue</x:tag>'));
      expect((await dav(base, 'PUT', '/dav/o.txt', { authorization: auth }, 'version two')).status).toBe(204);
      const after = await fileNamed('o.txt');
      expect(after).toMatchObject({ id: before.id, star: 1, size: '11' });
      expect(await propfind('/dav/o.txt', '<x:tag xmlns:x="urn:x"/>')).toContain('blue');
      const trashed = await h.ctx.db.selectFrom('files').selectAll().where('user_id', '=', a.sub).where('trashed', '=', 1).where('name', 'like', 'o (replaced %').execute();
      expect(trashed).toHaveLength(1);
      expect(trashed[0]).toMatchObject({ star: 0, trash_group: trashed[0]!.id });
      expect(await h.ctx.db.selectFrom('dav_props').select('name').where('file_id', '=', trashed[0]!.id).execute()).toEqual([]);
      expect((await h.api('POST', '/drive/v1/files:batchUntrash', a.access_token, { ids: [trashed[0]!.id] })).status).toBe(200);
      expect((await dav(base, 'GET', `/dav/${encodeURIComponent(trashed[0]!.name)}`, { authorization: auth })).text).toBe('version one');
    });

    it('keeps nothing in the trash when there is nothing to keep: the same bytes again, or an empty file', async () => {
      const inTrash = async () => (await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', a.sub).where('trashed', '=', 1).execute()).length;
      await dav(base, 'PUT', '/dav/same.txt', { authorization: auth }, 'same');
      await dav(base, 'PUT', '/dav/empty.txt', { authorization: auth }, '');
      const n = await inTrash();
      expect((await dav(base, 'PUT', '/dav/same.txt', { authorization: auth }, 'same')).status).toBe(204);
      expect((await dav(base, 'PUT', '/dav/empty.txt', { authorization: auth }, 'now with bytes')).status).toBe(204);
      expect(await inTrash()).toBe(n);
    });
  });

  it('treats a client hanging up mid-PUT as the client\'s doing: no error or database line in the log, no 5xx in the metrics', async () => {
    const url = new URL(base);
    const from = lines.length;
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((r) => socket.once('connect', r));
    socket.write(`PUT /dav/cut.bin HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${auth}\r\nContent-Length: 1000000\r\n\r\n`);
    socket.write(Buffer.alloc(64 * 1024, 7));
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await vi.waitFor(() => expect(lines.slice(from).join('')).toMatch(/client closed the request/), { timeout: 5000 });
    const logged = lines.slice(from).map((l) => JSON.parse(l) as { level: number; msg?: string });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.slice(from).join('\n')).not.toMatch(/database/i);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics.split('\n').filter((l) => l.startsWith('haul_http_requests_total') && l.includes('/dav/') && /status="5/.test(l))).toEqual([]);
    expect((await dav(base, 'GET', '/dav/cut.bin', { authorization: auth })).status).toBe(404);
  });
});
