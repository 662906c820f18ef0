/**
 * Entry names that used to stop a whole unpacking: a stored path that repeats (Debian's tar appending a newer copy,
 * a zip writer that allows duplicates) and names holding a line break or other control characters. The first copy
 * lands and the later ones are listed as skipped; odd names land cleaned by the drive's name rules; the rest lands.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';
import { decompress, drivedTree, list, pack, requireTool, settle, sha256, tree, upload, Z7 } from './archive-tools.js';

/** A zip written by Python's zipfile, which stores any name it is given, twice if asked. */
function rawZip(entries: [string, string][]): Buffer {
  const dir = tree({});
  const script = 'import sys,zipfile,json,warnings\nwarnings.simplefilter("ignore")\nz=zipfile.ZipFile(sys.argv[1],"w")\nfor n,c in json.loads(sys.argv[2]): z.writestr(n,c)\nz.close()';
  execFileSync(requireTool('python3', 'apt-get install python3'), ['-c', script, join(dir, 'x.zip'), JSON.stringify(entries)]);
  return pack(dir, 'true', [], 'x.zip');
}

describe('entry names that repeat or hold control characters', () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    Z7();
    requireTool('tar', 'apt-get install tar');
    h = await startTestHaul();
    h.archives.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  /** Lists (path → skip reason of each file entry, in order), unpacks everything, and returns what landed. */
  async function listAndUnpack(name: string, bytes: Buffer) {
    const id = await upload(h, t, name, bytes);
    const listed = await list(h, t.access_token, id);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const skipped = listed.body.files.filter((f: any) => f.kind === 'drive#file').map((f: any) => [f.path, f.skipped]);
    const res = await decompress(h, t.access_token, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = await settle(h, t.access_token, res.body.task.id);
    expect(end.task.phase, end.task.message).toBe('PHASE_TYPE_COMPLETE');
    return { skipped, end, got: await drivedTree(h, t.sub, end.task.file_id) };
  }

  it('a tar with a file appended again (tar -r): the first copy lands, the second is skipped as a duplicate', async () => {
    const dir = tree({ 'a.txt': 'first\n', 'b.txt': 'bee\n', 'sub/c.txt': 'cee\n' });
    execFileSync('tar', ['cf', 'dup.tar', 'a.txt', 'b.txt', 'sub'], { cwd: dir });
    writeFileSync(join(dir, 'a.txt'), 'second, longer copy\n');
    execFileSync('tar', ['rf', 'dup.tar', 'a.txt'], { cwd: dir });
    const { skipped, got, end } = await listAndUnpack('dup.tar', pack(dir, 'true', [], 'dup.tar'));
    expect(skipped).toEqual([['a.txt', ''], ['b.txt', ''], ['sub/c.txt', ''], ['a.txt', 'duplicate']]);
    expect(got).toEqual({ 'a.txt': sha256('first\n'), 'b.txt': sha256('bee\n'), 'sub/c.txt': sha256('cee\n') });
    expect(end.done_entries).toBe(3);
  });

  it('a zip holding one name twice, among many entries: the first copy lands, every other entry too', async () => {
    const many: [string, string][] = Array.from({ length: 40 }, (_, i) => [`m/f${i}.txt`, `file ${i}\n`]);
    const bytes = rawZip([['a.txt', 'first\n'], ...many.slice(0, 20), ['a.txt', 'second copy\n'], ...many.slice(20)]);
    const { skipped, got } = await listAndUnpack('dup.zip', bytes);
    expect(skipped.filter(([p]: string[]) => p === 'a.txt')).toEqual([['a.txt', ''], ['a.txt', 'duplicate']]);
    expect(got).toEqual({ 'a.txt': sha256('first\n'), ...Object.fromEntries(many.map(([p, c]) => [p, sha256(c)])) });
  });

  it('names with a line break, a carriage return, a tab or another control character land cleaned', async () => {
    const files: Record<string, string> = { 'nl\nname.txt': 'newline\n', 'cr\rname.txt': 'return\n', 'tab\there.txt': 'tab\n', 'esc\x1bape.txt': 'esc\n', 'ok.txt': 'ok\n' };
    const want = { 'nl_name.txt': sha256('newline\n'), 'crname.txt': sha256('return\n'), 'tabhere.txt': sha256('tab\n'), 'escape.txt': sha256('esc\n'), 'ok.txt': sha256('ok\n') };
    // Debian's tar, of files with those names on disk.
    const dir = tree(files);
    execFileSync('tar', ['cf', 'odd.tar', ...Object.keys(files)], { cwd: dir });
    const fromTar = await listAndUnpack('odd.tar', pack(dir, 'true', [], 'odd.tar'));
    expect(fromTar.skipped.every(([, s]: string[]) => s === '')).toBe(true);
    expect(fromTar.got).toEqual(want);
    // And a zip, whose names 7-Zip reads from a central directory rather than a header per file.
    const fromZip = await listAndUnpack('odd.zip', rawZip(Object.entries(files)));
    expect(fromZip.got).toEqual(want);
  });
});
