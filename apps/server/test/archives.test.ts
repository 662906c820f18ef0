/**
 * Cloud decompression of archives made here with real tools: zip (plain, ZipCrypto, AES), 7z with encrypted headers,
 * tar and tar.gz; entries that try to leave the folder, links, bombs, damaged files.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, pack, requireTool, settle, sha256, tree, upload, Z7 } from './archive-tools.js';

const FILES = { 'a.txt': 'alpha\n', 'docs/b.md': '# bravo\n', 'docs/deep/c.bin': Buffer.alloc(70_000, 7) };
const HASHES = Object.fromEntries(Object.entries(FILES).map(([p, c]) => [p, sha256(c)]));

/** A zip written by Python's zipfile, which stores any name it is given (as a hostile archiver would). */
function rawZip(entries: [string, string][]): Buffer {
  const dir = tree({});
  const script = 'import sys,zipfile,json\nz=zipfile.ZipFile(sys.argv[1],"w")\nfor n,c in json.loads(sys.argv[2]): z.writestr(n,c)\nz.close()';
  execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, join(dir, 'x.zip'), JSON.stringify(entries)]);
  return pack(dir, 'true', [], 'x.zip');
}

describe('cloud decompression', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let zip: string;
  beforeAll(async () => {
    Z7();
    zip = requireTool('zip', 'apt-get install zip');
    requireTool('tar', 'apt-get install tar');
    h = await startTestHaul({ archiveMaxEntries: 200 });
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** Uploads, unpacks into the default folder and returns what landed. */
  async function roundTrip(name: string, bytes: Buffer, password?: string) {
    const id = await upload(h, t, name, bytes);
    const res = await decompress(h, t.access_token, id, password ? { password } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    return { id, end, tree: await drivedTree(h, t.sub, end.task.file_id) };
  }

  const formats: [string, (dir: string) => Buffer, string?][] = [
    ['plain.zip', (d) => pack(d, zip, ['-qr', 'plain.zip', '.'], 'plain.zip')],
    ['crypto.zip', (d) => pack(d, zip, ['-qr', '-P', 'pw1', 'crypto.zip', '.'], 'crypto.zip'), 'pw1'],
    ['aes.zip', (d) => pack(d, Z7(), ['a', '-tzip', '-mem=AES256', '-ppw2', 'aes.zip', '.'], 'aes.zip'), 'pw2'],
    ['headers.7z', (d) => pack(d, Z7(), ['a', '-t7z', '-mhe=on', '-ppw3', 'headers.7z', '.'], 'headers.7z'), 'pw3'],
    ['plain.tar', (d) => pack(d, 'tar', ['cf', 'plain.tar', 'a.txt', 'docs'], 'plain.tar')],
    ['packed.tar.gz', (d) => pack(d, 'tar', ['czf', 'packed.tar.gz', 'a.txt', 'docs'], 'packed.tar.gz')],
    ['packed.tar.xz', (d) => pack(d, 'tar', ['cJf', 'packed.tar.xz', 'a.txt', 'docs'], 'packed.tar.xz')],
  ];
  for (const [name, make, password] of formats) {
    it(`${name}: lists and unpacks every entry with its SHA-256`, async () => {
      const bytes = make(tree(FILES));
      const id = await upload(h, t, `l-${name}`, bytes);
      const listed = await list(h, t.access_token, id, password ? { password } : {});
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const files = listed.body.files.filter((f: any) => f.kind === 'drive#file');
      expect(files.map((f: any) => f.path).sort()).toEqual(Object.keys(FILES).sort());
      expect(files.find((f: any) => f.path === 'docs/deep/c.bin').size).toBe('70000');
      expect(files.every((f: any) => f.encrypted === !!password)).toBe(true);
      expect(files.every((f: any) => /^\d{4}-\d\d-\d\dT/.test(f.modified_time))).toBe(true);
      const { tree: got, end } = await roundTrip(name, bytes, password);
      expect(got).toEqual(HASHES);
      expect(end.done_entries).toBe(3);
      expect(end.done_size).toBe(String(6 + 8 + 70_000));
    });
  }

  it('a wrong password for a 7z with encrypted headers, and for a zip, is a 400 and starts nothing', async () => {
    const dir = tree(FILES);
    const seven = await upload(h, t, 'w.7z', pack(dir, Z7(), ['a', '-t7z', '-mhe=on', '-pright', 'w.7z', '.'], 'w.7z'));
    expect((await list(h, t.access_token, seven, { password: 'wrong' })).body.error).toBe('archive_password_wrong');
    const z = await upload(h, t, 'w.zip', pack(dir, zip, ['-qr', '-P', 'right', 'w.zip', '.'], 'w.zip'));
    const res = await decompress(h, t.access_token, z, { password: 'wrong' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('archive_password_wrong');
    // The listing of a zip is not encrypted: it shows the lock on each entry.
    expect((await list(h, t.access_token, z)).body.has_encrypted).toBe(true);
    // A large entry: the password is proven on its first bytes, then the task unpacks it whole.
    const big = randomBytes(3 * 1024 * 1024);
    const bigId = await upload(h, t, 'big.7z', pack(tree({ 'big.bin': big }), Z7(), ['a', '-t7z', '-pright', 'big.7z', 'big.bin'], 'big.7z'));
    expect((await decompress(h, t.access_token, bigId, { password: 'wrong' })).body.error).toBe('archive_password_wrong');
    const ok = await decompress(h, t.access_token, bigId, { password: 'right' });
    const end = await settle(h, t.access_token, ok.body.task.id);
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual({ 'big.bin': sha256(big) });
  });

  it('keeps entries that climb out, start at / or a drive letter inside the folder, and skips `..`', async () => {
    const bytes = rawZip([
      ['../escape.txt', 'x'],
      ['a/../../escape2.txt', 'y'],
      ['/etc/passwd-like', 'abs'],
      ['C:\\windows\\evil.txt', 'drive'],
      ['ok\\win.txt', 'bs'],
      ['fine.txt', 'ok'],
    ]);
    const id = await upload(h, t, 'slip.zip', bytes);
    const listed = await list(h, t.access_token, id);
    const skipped = Object.fromEntries(listed.body.files.map((f: any) => [f.path, f.skipped]));
    expect(skipped['../escape.txt']).toBe('unsafe_path');
    expect(skipped['a/../../escape2.txt']).toBe('unsafe_path');
    const { tree: got, end } = await roundTrip('slip.zip', bytes);
    expect(Object.keys(got).sort()).toEqual(['etc/passwd-like', 'fine.txt', 'ok/win.txt', 'windows/evil.txt']);
    // Nothing landed beside the folder.
    const rootNames = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files.map((f: any) => f.name);
    expect(rootNames.filter((n: string) => n.startsWith('escape'))).toEqual([]);
    expect(end.task.file_id).not.toBe('');
  });

  it('skips symbolic links in zip and tar', async () => {
    const dir = tree({ 'real.txt': 'real' });
    execFileSync('ln', ['-s', '/etc/passwd', join(dir, 'link')]);
    for (const [name, bytes] of [
      ['links.zip', pack(dir, zip, ['-qry', 'links.zip', 'real.txt', 'link'], 'links.zip')],
      ['links.tar', pack(dir, 'tar', ['cf', 'links.tar', 'real.txt', 'link'], 'links.tar')],
    ] as const) {
      const id = await upload(h, t, `l-${name}`, bytes);
      const listed = await list(h, t.access_token, id);
      expect(listed.body.files.find((f: any) => f.path === 'link').skipped).toBe('link');
      const { tree: got } = await roundTrip(name, bytes);
      expect(got).toEqual({ 'real.txt': sha256('real') });
    }
  });

  it('refuses a bomb (far more bytes than the archive), and an archive of too many entries', async () => {
    const dir = tree({ 'zeros.bin': Buffer.alloc(30 * 1024 * 1024) });
    const bomb = await upload(h, t, 'bomb.7z', pack(dir, Z7(), ['a', '-t7z', '-mx=9', 'bomb.7z', 'zeros.bin'], 'bomb.7z'));
    const res = await decompress(h, t.access_token, bomb);
    expect(res.status).toBe(400);
    expect(res.body.error_description).toMatch(/times the archive's size/);
    const many = tree(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`f${i}.txt`, `${i}`])));
    const manyId = await upload(h, t, 'many.zip', pack(many, zip, ['-qr', 'many.zip', '.'], 'many.zip'));
    const listed = await list(h, t.access_token, manyId);
    expect(listed.status).toBe(400);
    expect(listed.body.error_description).toMatch(/more than 200 entries/);
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).where('name', 'in', ['bomb.7z', 'many.zip']).execute();
    expect(tasks).toEqual([]);
  });

  it('refuses files that are not archives, and damaged archives, with a 400', async () => {
    const fake = await upload(h, t, 'fake.zip', Buffer.from('not a zip at all'));
    expect((await list(h, t.access_token, fake)).status).toBe(400);
    const text = await upload(h, t, 'notes.txt', Buffer.from('hello'));
    expect((await list(h, t.access_token, text)).status).toBe(400);
    const epub = await upload(h, t, 'book.epub', pack(tree(FILES), zip, ['-qr', 'book.epub', '.'], 'book.epub'));
    expect((await list(h, t.access_token, epub)).status).toBe(400);
    const whole = pack(tree(FILES), Z7(), ['a', '-t7z', 'cut.7z', '.'], 'cut.7z');
    const cut = await upload(h, t, 'cut.7z', whole.subarray(0, Math.floor(whole.length / 2)));
    const res = await decompress(h, t.access_token, cut);
    expect(res.status).toBe(400);
  });

  it('accepts the token as access_token in the query', async () => {
    const id = await upload(h, t, 'q.zip', pack(tree(FILES), zip, ['-qr', 'q.zip', '.'], 'q.zip'));
    const res = await h.api('POST', `/decompress/v1/list?access_token=${encodeURIComponent(t.access_token)}`, undefined, { file_id: id });
    expect(res.status).toBe(200);
    expect((await h.api('POST', '/decompress/v1/list', undefined, { file_id: id })).status).toBe(401);
  });
});

describe('entry names that are not UTF-8', () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** A zip made by Debian's zip in the C locale, which stores the names' bytes as they are (no UTF-8 flag). */
  function legacyZip(names: Record<string, [Buffer, string]>): Buffer {
    const dir = tree({});
    const script = 'import sys,os,json\nfor hexname,c in json.loads(sys.argv[2]):\n  open(os.path.join(sys.argv[1].encode(),bytes.fromhex(hexname)),"w").write(c)';
    execFileSync('python3', ['-c', script, dir, JSON.stringify(Object.values(names).map(([b, c]) => [b.toString('hex'), c]))]);
    execFileSync(requireTool('zip', 'apt-get install zip'), ['-q', '-r', 'legacy.zip', '.'], { cwd: dir, env: { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C' } });
    return pack(dir, 'true', [], 'legacy.zip');
  }

  it('reads CP437 names by default and Shift-JIS names when asked, and unpacks them under those names', async () => {
    const cp437 = await upload(h, t, 'cafe.zip', legacyZip({ a: [Buffer.from([0x43, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]), 'cp437\n'] }));
    const listed = await list(h, t.access_token, cp437);
    expect(listed.body.files.map((f: any) => f.path)).toEqual(['Café.txt']);
    const sjisName = Buffer.from([0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0x2e, 0x74, 0x78, 0x74]); // テスト.txt
    const sjis = await upload(h, t, 'sjis.zip', legacyZip({ a: [sjisName, 'sjis\n'], b: [Buffer.from('plain.txt'), 'ascii\n'] }));
    const asJapanese = await list(h, t.access_token, sjis, { encoding: 'shift_jis' });
    expect(asJapanese.body.files.map((f: any) => f.path).sort()).toEqual(['plain.txt', 'テスト.txt']);
    const res = await decompress(h, t.access_token, sjis, { encoding: 'shift_jis' });
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual({ 'テスト.txt': sha256('sjis\n'), 'plain.txt': sha256('ascii\n') });
    const cafe = await decompress(h, t.access_token, cp437);
    expect(await drivedTree(h, t.sub, (await settle(h, t.access_token, cafe.body.task.id)).task.file_id)).toEqual({ 'Café.txt': sha256('cp437\n') });
  });
});
