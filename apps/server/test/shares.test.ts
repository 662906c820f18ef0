import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, mkdir, names, startTestHaul, storedBlobs, type TestHaul } from './helper.js';

/** Calls the API as a visitor from `address` (the test's loopback connection is a trusted proxy). */
async function visit(h: TestHaul, url: string, opts: { address?: string; token?: string } = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': opts.address ?? '203.0.113.7' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await h.app.inject({ method: 'GET', url, headers });
  const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : undefined, raw: res.rawPayload };
}

const q = (params: Record<string, string | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');

describe('share links', () => {
  let h: TestHaul;
  const clock = new ManualClock();
  let owner: TokenResponse;
  let tok: string;
  // Drive of the owner: Parent/{Shared/{Inner/deep.txt, a.txt, gone.txt}, Sibling/secret.txt}
  let parent: string, shared: string, inner: string, sibling: string;
  let aTxt: { id: string }, deep: { id: string }, secret: { id: string }, gone: { id: string };

  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    owner = await h.signUp();
    tok = owner.access_token;
    parent = await mkdir(h, tok, 'Parent');
    shared = await mkdir(h, tok, 'Shared', parent);
    inner = await mkdir(h, tok, 'Inner', shared);
    sibling = await mkdir(h, tok, 'Sibling', parent);
    aTxt = await h.putFile(owner, shared, 'a.txt', 'alpha bytes');
    deep = await h.putFile(owner, inner, 'deep.txt', 'deep bytes');
    await h.ctx.db.updateTable('files').set({ params: JSON.stringify({ url: 'https://example.com/a?X-Amz-Signature=SECRET', platform: 'upload' }) }).where('id', '=', deep.id).execute();
    gone = await h.putFile(owner, shared, 'gone.txt', 'soon trashed');
    secret = await h.putFile(owner, sibling, 'secret.txt', 'not shared');
  });
  afterAll(() => h.destroy());

  const share = async (body: Record<string, unknown>, token = tok) => h.api('POST', '/drive/v1/share', token, body);
  /** Moves time on; the owner's access token would lapse, so it is refreshed as the web app does. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    const res = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: owner.refresh_token });
    owner = res.body;
    tok = owner.access_token;
  };

  it('shares publicly: anyone lists it, opens its folders and downloads through a share link', async () => {
    const res = await share({ file_ids: [shared], share_to: 'publiclink', expiration_days: -1 });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({ share_to: 'publiclink', pass_code: '', title: 'Shared', file_kind: 'drive#folder', file_num: '3', expiration_at: '-1', expiration_left: '-1', share_status: 'OK', view_count: '0' });
    expect(s.share_id).toMatch(/^[a-z0-9]{20}$/);
    expect(s.share_url).toBe(`http://haul.test/s/${s.share_id}`);
    expect(Number(s.file_size)).toBe('alpha bytes'.length + 'deep bytes'.length + 'soon trashed'.length);

    const top = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`);
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({ share_status: 'OK', title: 'Shared', user_info: { user_id: '', nickname: expect.any(String) }, is_owner: false });
    expect(top.body.files.map((f: any) => f.name)).toEqual(['Shared']);
    // Visitors do not learn the owner's content hashes or parameters.
    expect(top.body.files[0]).toMatchObject({ hash: '', user_id: '', params: {} });

    const inside = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, parent_id: shared, order: 'NAME_ASC' })}`);
    expect(inside.body.files.map((f: any) => f.name)).toEqual(['Inner', 'a.txt', 'gone.txt']);
    expect(inside.body.ancestors.map((a: any) => a.name)).toEqual(['Shared']);
    const deeper = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, parent_id: inner })}`);
    expect(deeper.body.files.map((f: any) => f.name)).toEqual(['deep.txt']);
    expect(deeper.body.ancestors.map((a: any) => a.name)).toEqual(['Shared', 'Inner']);

    const info = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: deep.id })}`);
    expect(info.status).toBe(200);
    const link = new URL(info.body.file_info.web_content_link);
    const bytes = await visit(h, link.pathname + link.search);
    expect(bytes.status).toBe(200);
    expect(bytes.raw.toString()).toBe('deep bytes');

    // Trashing an item takes it out of the share at once, link included.
    const goneInfo = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: gone.id })}`);
    const goneLink = new URL(goneInfo.body.file_info.web_content_link);
    expect((await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [gone.id] })).status).toBe(200);
    expect((await visit(h, goneLink.pathname + goneLink.search)).status).toBe(404);
    const after = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, parent_id: shared, order: 'NAME_ASC' })}`);
    expect(after.body.files.map((f: any) => f.name)).toEqual(['Inner', 'a.txt']);
    expect((await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: gone.id })}`)).body.error).toBe('file_not_found');
  });

  it('never shows a sibling, a parent or another account’s file through any id', async () => {
    const s = (await share({ file_ids: [shared], share_to: 'publiclink', expiration_days: 7 })).body;
    const other = await h.signUp();
    const foreign = await h.putFile(other, '', 'foreign.txt', 'someone else');
    for (const id of [parent, sibling, secret.id, foreign.id, 'nope', '', '*']) {
      const list = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, parent_id: id })}`);
      if (id === '') {
        expect(list.body.files.map((f: any) => f.name)).toEqual(['Shared']);
        continue;
      }
      expect(list.status, id).toBe(404);
      expect(list.body.error).toBe('file_not_found');
      const info = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: id })}`);
      expect(info.status, id).toBe(404);
    }
    // A share link of one file cannot be bent to fetch another: the signature names the file.
    const info = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: aTxt.id })}`);
    const link = new URL(info.body.file_info.web_content_link);
    const swapped = link.pathname.replace(aTxt.id, secret.id) + link.search;
    expect((await visit(h, swapped)).status).toBe(404);
    // Paths that are not share ids are refused as bad input.
    const bad = await visit(h, `/drive/v1/share?${q({ share_id: '../files' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_argument');
  });

  it('asks for the pass code, refuses a wrong one, and hands out a token for the right one', async () => {
    const s = (await share({ file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: 30 })).body;
    expect(s.pass_code).toMatch(/^[a-z0-9]{4}$/);
    const base = { share_id: s.share_id };
    const empty = await visit(h, `/drive/v1/share?${q(base)}`);
    expect(empty.body).toMatchObject({ share_status: 'PASS_CODE_EMPTY', files: [], pass_code_token: '' });
    const wrong = await visit(h, `/drive/v1/share?${q({ ...base, pass_code: s.pass_code === 'zzzz' ? 'yyyy' : 'zzzz' })}`);
    expect(wrong.body).toMatchObject({ share_status: 'PASS_CODE_ERROR', files: [] });
    const right = await visit(h, `/drive/v1/share?${q({ ...base, pass_code: s.pass_code.toUpperCase() })}`);
    expect(right.body.share_status).toBe('OK');
    expect(right.body.files.map((f: any) => f.name)).toEqual(['a.txt']);
    const token = right.body.pass_code_token;
    expect(token).not.toBe('');
    expect((await visit(h, `/drive/v1/share?${q({ ...base, pass_code_token: token })}`)).body.share_status).toBe('OK');
    // Without the token nothing inside is handed out.
    expect((await visit(h, `/drive/v1/share/file_info?${q({ ...base, file_id: aTxt.id })}`)).status).toBe(403);
    const info = await visit(h, `/drive/v1/share/file_info?${q({ ...base, file_id: aTxt.id, pass_code_token: token })}`);
    expect(info.status).toBe(200);
    const link = new URL(info.body.file_info.web_content_link);
    expect((await visit(h, link.pathname + link.search)).raw.toString()).toBe('alpha bytes');
    // The owner needs no code.
    expect((await visit(h, `/drive/v1/share?${q(base)}`, { token: tok })).body).toMatchObject({ share_status: 'OK', is_owner: true });

    // A new pass code ends the access of everyone who had the old one, download links included.
    const patched = await h.api('PATCH', '/drive/v1/share', tok, { share_id: s.share_id, pass_code: 'Fresh1' });
    expect(patched.body.pass_code).toBe('fresh1');
    expect((await visit(h, `/drive/v1/share?${q({ ...base, pass_code_token: token })}`)).body.share_status).toBe('PASS_CODE_EMPTY');
    expect((await visit(h, link.pathname + link.search)).status).toBe(404);
    expect((await visit(h, `/drive/v1/share?${q({ ...base, pass_code: 'fresh1' })}`)).body.share_status).toBe('OK');
    // The token is short-lived.
    const fresh = (await visit(h, `/drive/v1/share?${q({ ...base, pass_code: 'fresh1' })}`)).body.pass_code_token;
    await advance(3 * 3600_000);
    expect((await visit(h, `/drive/v1/share?${q({ ...base, pass_code_token: fresh })}`)).body.share_status).toBe('PASS_CODE_EMPTY');
  });

  it('slows a guesser down more and more, while the right code still works for everyone else', async () => {
    const s = (await share({ file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: -1, pass_code: 'r1ght' })).body;
    const guesser = '198.51.100.9';
    const waits: number[] = [];
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      const res = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: `wr${i}ng` })}`, { address: guesser });
      if (res.status === 429) {
        expect(res.body.error).toBe('too_many_requests');
        const wait = res.body.details[0].retry_after_seconds as number;
        waits.push(wait);
        await advance(wait * 1000);
        // After waiting it may try again: this try is the next wrong guess.
        const again = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: `wr${i}ng` })}`, { address: guesser });
        expect(again.body.share_status).toBe('PASS_CODE_ERROR');
      } else {
        expect(res.body.share_status).toBe('PASS_CODE_ERROR');
        refused++;
      }
      // Someone with the code, from another address, is never held up.
      if (i % 20 === 19) {
        const friend = await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: 'r1ght' })}`, { address: `192.0.2.${i}` });
        expect(friend.body.share_status).toBe('OK');
      }
    }
    // Five free tries, the sixth wrong one starts the delays.
    expect(refused).toBe(6);
    expect(waits.length).toBe(94);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[0]).toBe(1);
    expect(waits.at(-1)).toBe(3600);
    // While it waits, even the right code from the guessing address is not looked at.
    await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: 'nope' })}`, { address: guesser });
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: 'r1ght' })}`, { address: guesser })).status).toBe(429);
  });

  it("lets the right code in after the address's wrong ones at other shares, which stay slowed, and right codes between guesses win nothing", async () => {
    const from = '198.51.100.60';
    const links = [];
    for (let i = 0; i < 8; i++) links.push((await share({ file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: -1, pass_code: `code${i}` })).body.share_id as string);
    const open = async (id: string, code: string) => {
      const res = await visit(h, `/drive/v1/share?${q({ share_id: id, pass_code: code })}`, { address: from });
      return res.status === 429 ? 429 : (res.body.share_status as string);
    };
    // Five wrong codes at each of six shares and three at a seventh: past the address's 30 across shares.
    for (let s = 0; s < 7; s++) for (let i = 0; i < (s < 6 ? 5 : 3); i++) expect(await open(links[s]!, `bad${i}x`)).toBe('PASS_CODE_ERROR');
    expect(await open(links[6]!, 'bad9x')).toBe(429);
    expect(await open(links[0]!, 'bad9x')).toBe(429);
    // Someone behind the same address opens the eighth with its code, again and again.
    for (let i = 0; i < 5; i++) expect(await open(links[7]!, 'code7')).toBe('OK');
    // A new share's first tries are not held up by the address's count, the ones after are; right codes between them
    // give nothing back.
    const fresh = (await share({ file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: -1, pass_code: 'fresh9' })).body.share_id as string;
    const tries: (string | number)[] = [];
    for (let i = 0; i < 6; i++) {
      tries.push(await open(fresh, `bad${i}x`));
      expect(await open(links[7]!, 'code7')).toBe('OK');
    }
    expect(tries).toEqual(['PASS_CODE_ERROR', 'PASS_CODE_ERROR', 'PASS_CODE_ERROR', 429, 429, 429]);
    expect(await open(links[0]!, 'bad9x')).toBe(429);
  });

  it('takes the client address from X-Forwarded-For only from a local proxy', async () => {
    const s = (await share({ file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: -1, pass_code: 'lan1' })).body;
    // A client on the local network naming a new address on every try is still one client.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await h.app.inject({
        method: 'GET',
        url: `/drive/v1/share?${q({ share_id: s.share_id, pass_code: `no${i}pe` })}`,
        remoteAddress: '192.168.1.50',
        headers: { 'x-forwarded-for': `198.18.0.${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });

  it('expires: the link, the list and download links handed out earlier all stop at once', async () => {
    const s = (await share({ file_ids: [aTxt.id], share_to: 'publiclink', expiration_days: 1 })).body;
    expect(s.expiration_left).toBe('1');
    expect(Number(s.expiration_left_seconds)).toBe(86400);
    const info = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: aTxt.id })}`);
    const link = new URL(info.body.file_info.web_content_link);
    await advance(20 * 3600_000);
    const listed = await h.api('GET', `/drive/v1/share/list?filters=${encodeURIComponent(JSON.stringify({ id: { in: s.share_id } }))}`, tok);
    expect(listed.body.data[0]).toMatchObject({ share_id: s.share_id, share_status: 'OK', expiration_left: '1', expiration_left_seconds: String(4 * 3600) });
    await advance(4 * 3600_000 + 1000);
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`)).body).toMatchObject({ share_status: 'EXPIRED', files: [] });
    expect((await visit(h, link.pathname + link.search)).status).toBe(404);
    const after = await h.api('GET', `/drive/v1/share/list?filters=${encodeURIComponent(JSON.stringify({ id: { in: s.share_id } }))}`, tok);
    expect(after.body.data[0]).toMatchObject({ share_status: 'EXPIRED', expiration_left: '0' });
  });

  it('counts views exactly (not the owner’s) and lets only the owner change or cancel a share', async () => {
    const s = (await share({ file_ids: [inner], share_to: 'publiclink', expiration_days: 14 })).body;
    await Promise.all(Array.from({ length: 25 }, (_, i) => visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`, { address: `10.9.0.${i}` })));
    await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`, { token: tok });
    await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, parent_id: inner })}`);
    const listed = await h.api('GET', `/drive/v1/share/list?filters=${encodeURIComponent(JSON.stringify({ id: { in: s.share_id } }))}`, tok);
    expect(listed.body.data[0].view_count).toBe('25');

    const stranger = (await h.signUp()).access_token;
    for (const [method, url, body] of [
      ['PATCH', '/drive/v1/share', { share_id: s.share_id, expiration_days: -1 }],
      ['POST', '/drive/v1/share:batchDelete', { ids: [s.share_id] }],
    ] as const) {
      const res = await h.api(method, url, stranger, body);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('share_not_found');
    }
    expect((await h.api('GET', '/drive/v1/share/list', stranger)).body.data).toEqual([]);
    expect((await h.api('POST', '/drive/v1/share', stranger, { file_ids: [inner], share_to: 'publiclink', expiration_days: 1 })).body.error).toBe('file_not_found');
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`)).body.share_status).toBe('OK');

    const info = await visit(h, `/drive/v1/share/file_info?${q({ share_id: s.share_id, file_id: deep.id })}`);
    const link = new URL(info.body.file_info.web_content_link);
    expect((await h.api('POST', '/drive/v1/share:batchDelete', tok, { ids: [s.share_id] })).status).toBe(200);
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`)).body.share_status).toBe('DELETED');
    expect((await visit(h, link.pathname + link.search)).status).toBe(404);
    const all = await h.api('GET', '/drive/v1/share/list', tok);
    expect(all.body.data.map((d: any) => d.share_id)).not.toContain(s.share_id);
    expect((await visit(h, `/drive/v1/share?${q({ share_id: 'a'.repeat(20) })}`)).body.share_status).toBe('NOT_FOUND');
  });

  it('reports which files are shared, and a share whose items are all trashed as deleted', async () => {
    const f = await h.putFile(owner, '', 'solo.txt', 'solo');
    const s = (await share({ file_ids: [f.id], share_to: 'publiclink', expiration_days: -1 })).body;
    const st = await h.api('POST', '/drive/v1/share/status/files', tok, { file_ids: [f.id, secret.id] });
    expect(st.body.file_statuses).toEqual([{ file_id: f.id, share_id: s.share_id, share_status: 'OK' }]);
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [f.id] });
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`)).body.share_status).toBe('DELETED');
  });

  it('refuses to share sensitive content, and closes a share whose item is flagged later', async () => {
    const flagged = await h.putFile(owner, inner, 'flagged.bin', 'flagged');
    await h.ctx.db.updateTable('files').set({ sensitive: 1 }).where('id', '=', flagged.id).execute();
    const before = (await h.api('GET', '/drive/v1/share/list', tok)).body.data.length;
    const res = await share({ file_ids: [shared], share_to: 'publiclink', expiration_days: 1 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('sensitive_resource');
    expect((await h.api('GET', '/drive/v1/share/list', tok)).body.data.length).toBe(before);
    await h.ctx.db.deleteFrom('files').where('id', '=', flagged.id).execute();

    const f = await h.putFile(owner, '', 'later.txt', 'later');
    const s = (await share({ file_ids: [f.id], share_to: 'publiclink', expiration_days: 1 })).body;
    await h.ctx.db.updateTable('files').set({ sensitive: 1 }).where('id', '=', f.id).execute();
    expect((await visit(h, `/drive/v1/share?${q({ share_id: s.share_id })}`)).body.share_status).toBe('SENSITIVE_RESOURCE');
  });

  it('refuses bad input with the error object and creates nothing', async () => {
    const before = (await h.api('GET', '/drive/v1/share/list', tok)).body.data.length;
    for (const body of [
      { file_ids: [aTxt.id], share_to: 'publiclink', expiration_days: 3 },
      { file_ids: [aTxt.id], share_to: 'everyone', expiration_days: 1 },
      { file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: 1, pass_code: 'ab' },
      { file_ids: [aTxt.id], share_to: 'encryptedlink', expiration_days: 1, pass_code: 'with space' },
      { file_ids: [aTxt.id], share_to: 'publiclink', expiration_days: 1, pass_code: 'abcd' },
      { file_ids: [], share_to: 'publiclink', expiration_days: 1 },
      { file_ids: [aTxt.id], share_to: 'publiclink', expiration_days: '7' },
    ]) {
      const res = await share(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_argument', error_code: 3 });
      expect(res.body.error_description.length).toBeGreaterThan(10);
    }
    expect((await h.api('GET', '/drive/v1/share/list', tok)).body.data.length).toBe(before);
    expect((await h.api('POST', '/drive/v1/share', undefined, { file_ids: [aTxt.id], share_to: 'publiclink', expiration_days: 1 })).status).toBe(401);
  });

  it('saves a shared folder into another drive without copying a byte', async () => {
    const s = (await share({ file_ids: [shared], share_to: 'encryptedlink', expiration_days: -1, pass_code: 'save' })).body;
    const visitor = await h.signUp();
    const token = (await visit(h, `/drive/v1/share?${q({ share_id: s.share_id, pass_code: 'save' })}`)).body.pass_code_token;
    const blobsBefore = (await storedBlobs(h)).sort();
    expect(blobsBefore.length).toBeGreaterThan(0);
    const target = await mkdir(h, visitor.access_token, 'From friends');

    // Without the token the visitor gets nothing.
    const denied = await h.api('POST', '/drive/v1/share/restore', visitor.access_token, { share_id: s.share_id, parent_id: target });
    expect(denied.status, JSON.stringify(denied.body)).toBe(403);
    expect(await names(h, visitor.access_token, target)).toEqual([]);

    const res = await h.api('POST', '/drive/v1/share/restore', visitor.access_token, { share_id: s.share_id, pass_code_token: token, parent_id: target });
    expect(res.status).toBe(200);
    expect(res.body.file_ids).toHaveLength(1);
    expect(await names(h, visitor.access_token, target)).toEqual(['Shared']);
    const copied = res.body.file_ids[0];
    expect((await names(h, visitor.access_token, copied, '&order=NAME_ASC'))).toEqual(['Inner', 'a.txt']);
    const innerCopy = (await h.api('GET', `/drive/v1/files?parent_id=${copied}&filters=${encodeURIComponent('{"kind":{"eq":"drive#folder"}}')}`, visitor.access_token)).body.files[0];
    const deepCopy = (await h.api('GET', `/drive/v1/files?parent_id=${innerCopy.id}`, visitor.access_token)).body.files[0];
    const got = await h.api('GET', `/drive/v1/files/${deepCopy.id}`, visitor.access_token);
    const link = new URL(got.body.web_content_link);
    expect((await h.api('GET', link.pathname + link.search)).raw.toString()).toBe('deep bytes');

    expect((await storedBlobs(h)).sort()).toEqual(blobsBefore);
    // Nothing private of the owner's travels with the copies (where a download came from, for one): only that it was
    // saved from a share.
    expect(got.body.params).toEqual({ platform: 'share', platform_icon: 'share' });
    const about = await h.api('GET', '/drive/v1/about', visitor.access_token);
    expect(Number(about.body.quota.usage)).toBe('alpha bytes'.length + 'deep bytes'.length);
    const listed = await h.api('GET', `/drive/v1/share/list?filters=${encodeURIComponent(JSON.stringify({ id: { in: s.share_id } }))}`, tok);
    expect(listed.body.data[0].restore_count).toBe('1');

    // Only what the share holds can be picked: a sibling id fails the whole save.
    const sneaky = await h.api('POST', '/drive/v1/share/restore', visitor.access_token, { share_id: s.share_id, pass_code_token: token, file_ids: [secret.id], parent_id: '' });
    expect(sneaky.status).toBe(404);
    expect(await names(h, visitor.access_token)).toEqual(['From friends']);

    // A save that would pass the visitor's quota is refused whole.
    await h.ctx.db.updateTable('users').set({ storage_limit: 25 }).where('id', '=', visitor.sub).execute();
    const full = await h.api('POST', '/drive/v1/share/restore', visitor.access_token, { share_id: s.share_id, pass_code_token: token, file_ids: [aTxt.id, deep.id] });
    expect(full.status).toBe(403);
    expect(full.body.error).toBe('file_space_not_enough');
    expect(await names(h, visitor.access_token)).toEqual(['From friends']);
  });
});
