/**
 * Zips through Haul, unpacked by real tools (7-Zip's 7zz and Info-ZIP's unzip): every file's SHA-256, folders kept
 * (empty ones too), UTF-8 names, unsafe names made safe, a share's zip holding exactly the share, another account's
 * ids refused, the allowance counted, and memory flat while a gigabyte passes. zip64.test.ts checks a 5 GiB zip.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { Z7 } from './archive-tools.js';
import { need } from './child-server.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { fetchZip as fetchZipFrom, GiB, listening, sha, sparseFile, tree } from './zip-tools.js';

// 7zz: the npm package's build (7-Zip 26), as the archive tests use; unzip: Debian's Info-ZIP.
const SEVEN = Z7();
need('unzip', 'unzip');

describe('zip downloads', () => {
  let h: TestHaul;
  let base: string;
  let owner: TokenResponse;
  let other: TokenResponse;
  const work = mkdtempSync(join(tmpdir(), 'haul-zip-'));
  const expected: Record<string, string> = {};
  let album: string;
  let deep: string;
  let empty: string;
  let bigId = '';

  const fetchZip = (url: string, out: string) => fetchZipFrom(base, url, out);
  const zipLink = async (tok: TokenResponse, ids: string[]) => h.api('POST', '/drive/v1/files:zip', tok.access_token, { ids });

  beforeAll(async () => {
    h = await startTestHaul({ dataDir: join(work, 'data') });
    base = await listening(h);
    owner = await h.signUp();
    other = await h.signUp();
    album = await mkdir(h, owner.access_token, 'Album');
    for (let i = 0; i < 1000; i++) {
      const content = `file ${i}\n`.repeat(1 + (i % 7));
      const name = `f${String(i).padStart(4, '0')}.${i % 3 ? 'bin' : 'txt'}`;
      await h.putFile(owner, album, name, content);
      expected[`Album/${name}`] = sha(content);
    }
    deep = await mkdir(h, owner.access_token, 'Deep', album);
    const deeper = await mkdir(h, owner.access_token, 'Deeper', deep);
    await h.putFile(owner, deeper, 'Ünïcødé 日本語.txt', 'utf-8 name');
    expected['Album/Deep/Deeper/Ünïcødé 日本語.txt'] = sha('utf-8 name');
    empty = await mkdir(h, owner.access_token, 'Empty', album);
    // Names the API would refuse, written straight into the rows: the zip must still make them safe.
    const evil = await h.putFile(owner, album, 'evil.txt', 'evil');
    await h.ctx.db.updateTable('files').set({ name: '../../evil\u0007\u009b.txt' }).where('id', '=', evil.id).execute();
    expected['Album/.._.._evil__.txt'] = sha('evil');
    const dots = await h.putFile(owner, album, 'dots', 'dots');
    await h.ctx.db.updateTable('files').set({ name: '..' }).where('id', '=', dots.id).execute();
    expected['Album/_'] = sha('dots');
    const trashed = await h.putFile(owner, album, 'trashed.txt', 'gone');
    await h.api('POST', '/drive/v1/files:batchTrash', owner.access_token, { ids: [trashed.id] });
    const big = await sparseFile(h, owner.sub, work, album, 'big.bin', GiB);
    bigId = big.id;
    expected['Album/big.bin'] = big.sha256;
    for (const d of ['Album/', 'Album/Deep/', 'Album/Deep/Deeper/', 'Album/Empty/']) expected[d] = '';
  }, 300_000);
  afterAll(async () => {
    await h?.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('zips a folder of 1,000 files and a 1 GiB file that 7zz and unzip unpack byte for byte, with flat memory', async () => {
    const link = await zipLink(owner, [album]);
    expect(link.status).toBe(200);
    expect(link.body.name).toBe('Album.zip');
    expect(link.body.url).toMatch(/^http:\/\/haul\.test\/drive\/v1\/zip\/Album\.zip\?z=[\w-]+&s=[\w-]+$/);
    const file = join(work, 'album.zip');
    const got = await fetchZip(link.body.url, file);
    expect(got.bytes).toBe(statSync(file).size);
    expect(got.res.headers.get('content-type')).toBe('application/zip');
    expect(got.res.headers.get('content-disposition')).toContain('Album.zip');
    // 1 GiB passed; the server must not have held it (a copy in memory would add ~1 GiB).
    expect(got.peakRss - got.startRss).toBeLessThan(200 * 1024 * 1024);
    for (const [tool, args] of [
      [SEVEN, ['x', '-y', file]],
      ['unzip', ['-q', file]],
    ] as const) {
      const dir = mkdtempSync(join(work, 'unpacked-'));
      const run = spawnSync(tool, [...args, ...(tool === SEVEN ? [`-o${dir}`] : ['-d', dir])], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
      expect(run.status, `${tool}: ${run.stderr}`).toBe(0);
      expect(await tree(dir)).toEqual(expected);
      rmSync(dir, { recursive: true, force: true });
    }
    // Every name is flagged UTF-8 (general purpose bit 11) in the first local header.
    const head = readFileSync(file).subarray(0, 8);
    expect(head.readUInt32LE(0)).toBe(0x04034b50);
    expect(head.readUInt16LE(6) & 0x0800).toBe(0x0800);
    rmSync(file);
  }, 300_000);

  it('counts what the zip sent against the allowance of the account the link was made for', async () => {
    const usage = async () => Number((await h.api('GET', '/drive/v1/about?with_quotas=download_size_month', owner.access_token)).body.quotas.download_size_month.usage);
    const before = await usage();
    const link = await zipLink(owner, [deep, empty]);
    expect(link.body.name).toBe('Deep (+1).zip');
    const res = await fetch(link.body.url.replace('http://haul.test', base));
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    // The link's size is a bound here (text is deflated); what is counted is what was sent.
    expect(Number(link.body.size)).toBeGreaterThanOrEqual(body.length);
    expect((await usage()) - before).toBe(body.length);
  });

  it('refuses ids of another account like ids that do not exist, and links that are tampered with', async () => {
    const theirs = await zipLink(other, [album]);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('file_not_found');
    const none = await zipLink(other, ['nosuchid']);
    expect(none.status).toBe(404);
    const link = (await zipLink(owner, [deep])).body.url as string;
    // Someone else's ids swapped into a valid link break its signature.
    const z = new URL(link).searchParams.get('z')!;
    const forged = JSON.parse(Buffer.from(z, 'base64url').toString());
    forged[0] = other.sub;
    const bad = await fetch(link.replace(z, Buffer.from(JSON.stringify(forged)).toString('base64url')).replace('http://haul.test', base));
    expect(bad.status).toBe(404);
    expect((await bad.json()).error).toBe('file_not_found');
  });

  it("gives a share's visitor a zip of exactly the share, and nothing outside it", async () => {
    const share = (await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [deep], share_to: 'publiclink', expiration_days: -1 })).body.share_id as string;
    const link = await h.api('POST', '/drive/v1/share/zip', undefined, { share_id: share });
    expect(link.status).toBe(200);
    const file = join(work, 'share.zip');
    await fetchZip(link.body.url, file);
    const dir = mkdtempSync(join(work, 'share-'));
    expect(spawnSync('unzip', ['-q', file, '-d', dir]).status).toBe(0);
    expect(await tree(dir)).toEqual({ 'Deep/': '', 'Deep/Deeper/': '', 'Deep/Deeper/Ünïcødé 日本語.txt': sha('utf-8 name') });
    // A share with a pass code: nothing without the token; with it, the zip; a new code ends the link given.
    const locked = (await h.api('POST', '/drive/v1/share', owner.access_token, { file_ids: [deep], share_to: 'encryptedlink', expiration_days: -1 })).body;
    const refused = await h.api('POST', '/drive/v1/share/zip', undefined, { share_id: locked.share_id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('permission_denied');
    const opened = await h.api('GET', `/drive/v1/share?share_id=${locked.share_id}&pass_code=${locked.pass_code}`, undefined);
    const lockedLink = await h.api('POST', '/drive/v1/share/zip', undefined, { share_id: locked.share_id, pass_code_token: opened.body.pass_code_token });
    expect(lockedLink.status).toBe(200);
    expect((await fetch(lockedLink.body.url.replace('http://haul.test', base))).status).toBe(200);
    await h.api('PATCH', '/drive/v1/share', owner.access_token, { share_id: locked.share_id, pass_code: 'other1' });
    expect((await fetch(lockedLink.body.url.replace('http://haul.test', base))).status).toBe(404);

    // A sibling of the shared folder, or the folder above it, is not part of the share.
    for (const id of [empty, album, bigId]) {
      const out = await h.api('POST', '/drive/v1/share/zip', undefined, { share_id: share, ids: [id] });
      expect(out.status).toBe(404);
      expect(out.body.error).toBe('file_not_found');
    }
  });
});
