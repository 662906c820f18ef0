/**
 * Dead properties are not free storage: per file and per account they have limits (a PROPPATCH past one stores
 * nothing and answers 507 for what found no room, RFC 4918 §9.2), a COPY past the account's limit is refused whole,
 * the empty files LOCK makes on unmapped paths count like any other, and properties end when their file goes to the
 * trash, giving their room back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { MAX_BYTES_PER_RESOURCE, MAX_PROPS_PER_RESOURCE } from '../src/webdav/prop-limits.js';
import { names, startTestHaul, type TestHaul } from './helper.js';
import { appPassword, dav, listen } from './webdav-helper.js';

const XML = { 'content-type': 'application/xml; charset=utf-8' };
const ACCOUNT_MAX = 200 * 1024;

/** A PROPPATCH body setting `count` properties z:p{from..} of `bytes` characters each, and removing `remove`. */
function update(count: number, bytes: number, from = 0, remove: string[] = []): string {
  const sets = Array.from({ length: count }, (_, i) => `<Z:p${from + i}>${'x'.repeat(bytes)}</Z:p${from + i}>`).join('');
  const removes = remove.length ? `<D:remove><D:prop>${remove.map((n) => `<Z:${n}/>`).join('')}</D:prop></D:remove>` : '';
  return `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:haul-test">${removes}${count ? `<D:set><D:prop>${sets}</D:prop></D:set>` : ''}</D:propertyupdate>`;
}

/** The statuses of a multistatus answer, property by property (`p3` → 507). */
function statuses(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/<D:propstat><D:prop>(.*?)<\/D:prop><D:status>HTTP\/1\.1 (\d+)/g)) {
    for (const p of m[1]!.matchAll(/<(?:\w+:)?(p\d+)\b/g)) out.set(p[1]!, Number(m[2]));
  }
  return out;
}

describe('WebDAV dead property limits', () => {
  let h: TestHaul;
  let base: string;
  let a: TokenResponse;
  let auth: string;
  beforeAll(async () => {
    // A drive of 1,000 bytes, as in the finding; properties have their own limit.
    h = await startTestHaul({ defaultQuotaBytes: 1000, webdavPropsMaxBytes: ACCOUNT_MAX });
    base = await listen(h);
    a = await h.signUp();
    auth = (await appPassword(h, a)).basic;
  });
  afterAll(() => h.destroy());

  const req = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => dav(base, method, path, { authorization: auth, ...headers }, body);
  const patch = async (path: string, body: string) => {
    const res = await req('PROPPATCH', path, XML, body);
    expect(res.status, path).toBe(207);
    return statuses(res.text);
  };
  const kept = async (path: string) => {
    const res = await req('PROPFIND', path, { ...XML, depth: '0' }, '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
    return [...res.text.matchAll(/<(?:\w+:)?(p\d+)[\s/>]/g)].length;
  };
  const accountRows = async () => (await h.ctx.db.selectFrom('dav_props').select('size').where('user_id', '=', a.sub).execute()).reduce((n, r) => n + r.size, 0);

  it('keeps a file to 100 properties and 64 KiB, storing nothing of a change past either', async () => {
    expect((await req('PUT', '/dav/count.txt', {}, '')).status).toBe(201);
    const tooMany = await patch('/dav/count.txt', update(MAX_PROPS_PER_RESOURCE + 1, 1));
    expect([...tooMany.values()].every((s) => s === 507)).toBe(true);
    expect(await kept('/dav/count.txt')).toBe(0);
    expect([...(await patch('/dav/count.txt', update(MAX_PROPS_PER_RESOURCE, 1))).values()].every((s) => s === 200)).toBe(true);
    // One more is refused; replacing one in the same request is not, and what does not add is answered 424.
    const oneMore = await patch('/dav/count.txt', update(1, 1, 100, ['p0']).replace('<D:set><D:prop>', '<D:set><D:prop><Z:p1>y</Z:p1>'));
    expect(oneMore).toEqual(new Map([['p0', 200], ['p1', 200], ['p100', 200]]));
    const past = await patch('/dav/count.txt', update(2, 1, 200).replace('<D:set><D:prop>', '<D:set><D:prop><Z:p1>z</Z:p1>'));
    expect(past).toEqual(new Map([['p1', 424], ['p200', 507], ['p201', 507]]));
    expect(await kept('/dav/count.txt')).toBe(MAX_PROPS_PER_RESOURCE);

    expect((await req('PUT', '/dav/bytes.txt', {}, '')).status).toBe(201);
    expect(await patch('/dav/bytes.txt', update(1, 60 * 1024))).toEqual(new Map([['p0', 200]]));
    expect(await patch('/dav/bytes.txt', update(1, 5 * 1024, 1))).toEqual(new Map([['p1', 507]]));
    expect(await patch('/dav/bytes.txt', update(1, MAX_BYTES_PER_RESOURCE + 1, 2))).toEqual(new Map([['p2', 507]]));
    // A smaller value in place of the large one fits.
    expect(await patch('/dav/bytes.txt', update(1, 1024))).toEqual(new Map([['p0', 200]]));
    expect(await patch('/dav/bytes.txt', update(1, 5 * 1024, 1))).toEqual(new Map([['p1', 200]]));
  });

  it("keeps the account to its limit, on the empty files LOCK makes too, and a COPY past it is refused whole", async () => {
    await req('DELETE', '/dav/count.txt');
    await req('DELETE', '/dav/bytes.txt');
    expect(await accountRows()).toBe(0);
    const lockBody = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const results: number[] = [];
    for (let i = 0; i < 6; i++) {
      const locked = await req('LOCK', `/dav/held${i}.txt`, { ...XML, timeout: 'Second-600' }, lockBody);
      expect(locked.status).toBe(201);
      const token = /<([^>]+)>/.exec(String(locked.headers['lock-token']))![1]!;
      const res = await req('PROPPATCH', `/dav/held${i}.txt`, { ...XML, if: `(<${token}>)` }, update(1, 60 * 1024));
      results.push(statuses(res.text).get('p0')!);
      // The file a LOCK made stays after UNLOCK (RFC 4918 §7.3).
      expect((await req('UNLOCK', `/dav/held${i}.txt`, { 'lock-token': `<${token}>` })).status).toBe(204);
    }
    // They are files of the drive like any other, and three of 60 KiB fill the account's 200 KiB.
    expect(await names(h, a.access_token)).toEqual(expect.arrayContaining(['held0.txt', 'held5.txt']));
    expect(results).toEqual([200, 200, 200, 507, 507, 507]);
    expect(await accountRows()).toBeLessThanOrEqual(ACCOUNT_MAX);

    expect((await req('PUT', '/dav/source.txt', {}, '')).status).toBe(201);
    expect(await patch('/dav/source.txt', update(1, 1024))).toEqual(new Map([['p0', 200]]));
    const before = await accountRows();
    expect((await req('COPY', '/dav/held0.txt', { destination: '/dav/copy.txt' })).status).toBe(507);
    expect((await req('PROPFIND', '/dav/copy.txt', { depth: '0' })).status).toBe(404);
    expect(await accountRows()).toBe(before);
    // A copy of a file with properties that fit is made.
    expect((await req('COPY', '/dav/source.txt', { destination: '/dav/copy.txt' })).status).toBe(201);
    expect(await kept('/dav/copy.txt')).toBe(1);
  });

  it('ends the properties of a file that goes to the trash, by WebDAV or the web app, giving their room back', async () => {
    const full = await patch('/dav/held4.txt', update(1, 60 * 1024));
    expect(full.get('p0')).toBe(507);
    expect((await req('DELETE', '/dav/held0.txt')).status).toBe(204);
    const held1 = await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', a.sub).where('name', '=', 'held1.txt').executeTakeFirstOrThrow();
    expect((await h.api('POST', '/drive/v1/files:batchTrash', a.access_token, { ids: [held1.id] })).status).toBe(200);
    expect(await h.ctx.db.selectFrom('dav_props').select('file_id').where('file_id', '=', held1.id).execute()).toEqual([]);
    // Restoring brings the file back, bare.
    expect((await h.api('POST', '/drive/v1/files:batchUntrash', a.access_token, { ids: [held1.id] })).status).toBe(200);
    expect(await kept('/dav/held1.txt')).toBe(0);
    expect(await patch('/dav/held4.txt', update(1, 60 * 1024))).toEqual(new Map([['p0', 200]]));
    expect(await patch('/dav/held5.txt', update(1, 60 * 1024))).toEqual(new Map([['p0', 200]]));
  });

  it('keeps them through a PUT over the file, and removes them with a file deleted for good', async () => {
    expect((await req('PUT', '/dav/held4.txt', {}, 'new')).status).toBe(204);
    expect(await kept('/dav/held4.txt')).toBe(1);
    const held4 = await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', a.sub).where('name', '=', 'held4.txt').where('trashed', '=', 0).executeTakeFirstOrThrow();
    expect((await h.api('POST', '/drive/v1/files:batchDelete', a.access_token, { ids: [held4.id] })).status).toBe(200);
    expect(await h.ctx.db.selectFrom('dav_props').select('file_id').where('file_id', '=', held4.id).execute()).toEqual([]);
  });
});
