/**
 * Zips whose entry names are stored in a legacy code page (no UTF-8 flag), as Windows' own zip and older archivers
 * write them: GBK, Big5, Shift-JIS and CP437. The zips are written byte by byte here, so the names are exactly the
 * bytes those systems store, including Big5 and Shift-JIS characters whose second byte is a backslash.
 */
import { execFileSync } from 'node:child_process';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, requireTool, settle, sha256, upload } from './archive-tools.js';

/** A zip of stored (uncompressed) entries with names as given bytes: no UTF-8 flag, made on MS-DOS (host 0). */
function legacyZip(entries: [Buffer, string][]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const head = Buffer.alloc(46);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    head.writeUInt16LE(20, 6);
    head.writeUInt32LE(crc, 16);
    head.writeUInt32LE(data.length, 20);
    head.writeUInt32LE(data.length, 24);
    head.writeUInt16LE(name.length, 28);
    head.writeUInt32LE(offset, 42);
    central.push(head, name);
    offset += local.length + name.length + data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** `names` in Python's codec `codec` (Node's TextEncoder writes only UTF-8). */
function encode(codec: string, names: string[]): Buffer[] {
  const script = 'import sys,json\nprint(json.dumps([n.encode(sys.argv[1]).hex() for n in json.loads(sys.argv[2])]))';
  const out = execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, codec, JSON.stringify(names)], { encoding: 'utf8' });
  return (JSON.parse(out) as string[]).map((h) => Buffer.from(h, 'hex'));
}

/** What Python's codec reads from `bytes` (the wrong-choice mojibake, to compare with). */
function decode(codec: string, bytes: Buffer): string {
  const script = 'import sys\nprint(bytes.fromhex(sys.argv[2]).decode(sys.argv[1]), end="")';
  return execFileSync('python3', ['-c', script, codec, bytes.toString('hex')], { encoding: 'utf8' });
}

const paths = (res: { body: { files: { path: string; kind: string }[] } }) =>
  res.body.files.filter((f) => f.kind === 'drive#file').map((f) => f.path).sort();

describe('zip entry names in legacy code pages', () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** Uploads the zip of `names` (each file's content is its own name), lists and unpacks it as `encoding`. */
  async function roundTrip(archive: string, codec: string, names: string[], encoding: string) {
    const bytes = encode(codec, names);
    const id = await upload(h, t, archive, legacyZip(bytes.map((b, i) => [b, `${names[i]}\n`])));
    const listed = await list(h, t.access_token, id, { encoding });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const res = await decompress(h, t.access_token, id, { encoding });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    return { id, bytes, listed, tree: await drivedTree(h, t.sub, end.task.file_id) };
  }
  const contents = (names: string[]) => Object.fromEntries(names.map((n) => [n, sha256(`${n}\n`)]));

  it('GBK: names that differ only past ASCII are listed and unpacked apart, folders included', async () => {
    // 第一章 and 第二章 are the same length with the same ASCII parts: only their bytes tell them apart.
    const names = ['第一章.txt', '第二章.txt', '资料/说明.txt', 'readme.txt'];
    const { listed, tree } = await roundTrip('gbk.zip', 'gbk', names, 'gbk');
    expect(paths(listed)).toEqual([...names].sort());
    expect(listed.body.files.every((f: { skipped: string }) => f.skipped === '')).toBe(true);
    expect(tree).toEqual(contents(names));
  });

  it('Big5: characters whose second byte is a backslash stay one name', async () => {
    // 許 (B3 5C), 功 (A5 5C) and 蓋 (BB 5C) each end in 0x5C, the byte of "\".
    const names = ['許功蓋.txt', '資料夾/說明.txt'];
    expect(encode('big5', ['許'])[0]).toEqual(Buffer.from([0xb3, 0x5c]));
    const { listed, tree } = await roundTrip('big5.zip', 'big5', names, 'big5');
    expect(paths(listed)).toEqual([...names].sort());
    expect(tree).toEqual(contents(names));
  });

  it('Shift-JIS: kana and kanji, with a backslash trail byte (表, ソ)', async () => {
    const names = ['表.txt', 'ソフト.txt', '日本語/テスト.txt'];
    const { listed, tree } = await roundTrip('sjis.zip', 'shift_jis', names, 'shift_jis');
    expect(paths(listed)).toEqual([...names].sort());
    expect(tree).toEqual(contents(names));
  });

  it('CP437: read so by default (the zip format’s rule) and when asked', async () => {
    const names = ['Café.txt', 'Naïve résumé.txt', 'Ñandú/Über.txt'];
    const { id, tree } = await roundTrip('cp437.zip', 'cp437', names, '');
    expect(tree).toEqual(contents(names));
    expect(paths(await list(h, t.access_token, id, { encoding: 'cp437' }))).toEqual([...names].sort());
  });

  it('a wrong or missing choice reads the bytes as CP437, and the right one fixes the names', async () => {
    const names = ['第一章.txt'];
    const bytes = encode('gbk', names);
    const id = await upload(h, t, 'unsure.zip', legacyZip([[bytes[0]!, 'x\n']]));
    expect(paths(await list(h, t.access_token, id))).toEqual([decode('cp437', bytes[0]!)]);
    expect(paths(await list(h, t.access_token, id, { encoding: 'big5' }))).toEqual([decode('big5', bytes[0]!)]);
    expect(paths(await list(h, t.access_token, id, { encoding: 'gbk' }))).toEqual(names);
  });

  it('detects UTF-8 names stored without the flag, whatever encoding is asked for', async () => {
    const names = ['日本語.txt', 'Ελληνικά/κείμενο.txt'];
    const id = await upload(h, t, 'utf8.zip', legacyZip(names.map((n) => [Buffer.from(n), `${n}\n`])));
    for (const encoding of ['', 'cp437', 'shift_jis', 'gbk']) {
      expect(paths(await list(h, t.access_token, id, { encoding })), encoding).toEqual([...names].sort());
    }
    const res = await decompress(h, t.access_token, id, { encoding: 'gbk' });
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual(contents(names));
  });

  it('unpacks only the entries chosen by their decoded paths', async () => {
    const names = ['第一章.txt', '第二章.txt', '第三章.txt'];
    const id = await upload(h, t, 'some.zip', legacyZip(encode('gbk', names).map((b, i) => [b, `${names[i]}\n`])));
    const res = await decompress(h, t.access_token, id, { encoding: 'gbk', paths: ['第二章.txt'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(await drivedTree(h, t.sub, end.task.file_id)).toEqual(contents(['第二章.txt']));
  });

  it('GBK and Shift-JIS names in tar, tar.gz and tar.xz (tar stores raw bytes, as Linux tar on a legacy locale writes them)', async () => {
    const cases: [string, string, string, string[]][] = [
      ['gbk.tar', 'gbk', 'w', ['第一章.txt', '资料/说明.txt']],
      ['gbk.tar.gz', 'gbk', 'w:gz', ['第一章.txt', '第二章.txt', '资料/说明.txt']],
      ['sjis.tar.xz', 'shift_jis', 'w:xz', ['表.txt', '日本語/テスト.txt']],
    ];
    for (const [archive, codec, mode, names] of cases) {
      // Python's tarfile writes each name in the codec given, with no PAX header that would carry UTF-8.
      const script = [
        'import io,sys,json,tarfile',
        'names=json.loads(sys.argv[3]); buf=io.BytesIO()',
        't=tarfile.open(fileobj=buf, mode=sys.argv[2], format=tarfile.GNU_FORMAT, encoding=sys.argv[1])',
        'for n in names:',
        '    data=(n+"\\n").encode("utf-8"); i=tarfile.TarInfo(n); i.size=len(data); t.addfile(i, io.BytesIO(data))',
        't.close(); sys.stdout.buffer.write(buf.getvalue())',
      ].join('\n');
      const bytes = execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, codec, mode, JSON.stringify(names)]);
      const id = await upload(h, t, archive, bytes);
      // The names really are in the legacy code page inside the archive: read without it, they come out otherwise.
      expect(paths(await list(h, t.access_token, id)), archive).not.toEqual([...names].sort());
      const listed = await list(h, t.access_token, id, { encoding: codec });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(paths(listed), archive).toEqual([...names].sort());
      const res = await decompress(h, t.access_token, id, { encoding: codec });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const end = await settle(h, t.access_token, res.body.task.id);
      expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
      expect(await drivedTree(h, t.sub, end.task.file_id), archive).toEqual(contents(names));
    }
  });

  it('GBK names starting or ending with spaces are listed, unpacked and trimmed, a clash renamed by the drive', async () => {
    const names = [' \u7b2c\u4e00\u7ae0.txt', '\u7b2c\u4e8c\u7ae0.txt ', '\u7b2c\u4e00\u7ae0.txt'];
    const { listed, tree } = await roundTrip('spaced-gbk.zip', 'gbk', names, 'gbk');
    expect(listed.body.files.map((f: { path: string; skipped: string }) => [f.path, f.skipped]).sort()).toEqual(names.map((n) => [n, '']).sort());
    expect(Object.keys(tree).sort()).toEqual(['\u7b2c\u4e00\u7ae0 (1).txt', '\u7b2c\u4e00\u7ae0.txt', '\u7b2c\u4e8c\u7ae0.txt']);
    expect(tree['\u7b2c\u4e8c\u7ae0.txt']).toBe(sha256(`${names[1]}\n`));
    expect([tree['\u7b2c\u4e00\u7ae0.txt'], tree['\u7b2c\u4e00\u7ae0 (1).txt']].sort()).toEqual([sha256(`${names[0]}\n`), sha256(`${names[2]}\n`)].sort());
  });

  it('refuses an encoding it does not know, with a 400 that starts nothing', async () => {
    const id = await upload(h, t, 'odd.zip', legacyZip([[Buffer.from('a.txt'), 'a\n']]));
    const res = await list(h, t.access_token, id, { encoding: 'ebcdic' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_argument');
    const started = await decompress(h, t.access_token, id, { encoding: 'ebcdic' });
    expect(started.status).toBe(400);
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).where('name', '=', 'odd.zip').execute();
    expect(tasks).toEqual([]);
  });
});
