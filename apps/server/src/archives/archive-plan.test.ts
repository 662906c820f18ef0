import { describe, expect, it } from 'vitest';
import type { RawEntry } from './archive-listing.js';
import { bombReason, chooseEntries, planEntries, safeEntryPath } from './archive-plan.js';

const entry = (path: string, more: Partial<RawEntry> = {}): RawEntry => ({
  path,
  selector: path,
  rawName: false,
  raw: Buffer.from(path),
  folder: false,
  size: 10,
  modified: null,
  encrypted: false,
  link: false,
  ...more,
});

describe(safeEntryPath.name, () => {
  it('keeps every path inside the target folder', () => {
    expect(safeEntryPath('a/b.txt')).toEqual(['a', 'b.txt']);
    expect(safeEntryPath('/etc/passwd')).toEqual(['etc', 'passwd']);
    expect(safeEntryPath('C:\\Windows\\x.dll')).toEqual(['Windows', 'x.dll']);
    expect(safeEntryPath('./a//b/')).toEqual(['a', 'b']);
    expect(safeEntryPath('../x')).toBeNull();
    expect(safeEntryPath('a/../../x')).toBeNull();
    expect(safeEntryPath('a\\..\\..\\x')).toBeNull();
    expect(safeEntryPath('')).toBeNull();
    expect(safeEntryPath('a/\u202egnp.exe')).toEqual(['a', 'gnp.exe']);
  });
});

describe(planEntries.name, () => {
  it('skips links and duplicates, and adds the folders paths only imply', () => {
    const planned = planEntries([entry('d/x.txt'), entry('d/x.txt'), entry('l', { link: true }), entry('../up')]);
    expect(planned.map((p) => [p.path, p.skipped])).toEqual([
      ['d/x.txt', ''],
      ['d/x.txt', 'duplicate'],
      ['l', 'link'],
      ['../up', 'unsafe_path'],
      ['d', ''],
    ]);
  });

  it('keeps names that become one once trimmed, to land under the clash rule', () => {
    const planned = planEntries([entry(' a.txt'), entry('a.txt'), entry('b.txt '), entry('c. '), entry(' d /e.txt'), entry('d/f.txt')]);
    expect(planned.map((p) => [p.target.join('/'), p.skipped])).toEqual([
      ['a.txt', ''],
      ['a.txt', ''],
      ['b.txt', ''],
      ['c.', ''],
      ['d/e.txt', ''],
      ['d/f.txt', ''],
      ['d', ''],
    ]);
  });

  it('keeps stored names that differ only in bytes past ASCII, or end in white space, and skips one no list file can hold', () => {
    const raw = (bytes: number[]) => ({ rawName: true, raw: Buffer.from(bytes), selector: Buffer.from(bytes).toString('hex') });
    const a = entry('\u7b2c\u4e00\u7ae0.txt', raw([0xb5, 0xda, 0xd2, 0xbb, 0xd5, 0xc2, 0x2e, 0x74, 0x78, 0x74]));
    const b = entry('\u7b2c\u4e8c\u7ae0.txt', raw([0xb5, 0xda, 0xb6, 0xfe, 0xd5, 0xc2, 0x2e, 0x74, 0x78, 0x74]));
    const c = entry('\u7b2c ', raw([0xb5, 0xda, 0x20]));
    const d = entry('\u7b2c" ', raw([0xb5, 0xda, 0x22, 0x20]));
    expect(planEntries([a, b, c, d]).map((p) => p.skipped)).toEqual(['', '', '', 'duplicate']);
  });
});

describe(chooseEntries.name, () => {
  it('takes a folder with what is under it, and names unknown paths', () => {
    const planned = planEntries([entry('a/1'), entry('a/2'), entry('b/3')]);
    expect(chooseEntries(planned, ['a', 'zzz']).chosen.map((e) => e.path)).toEqual(['a/1', 'a/2', 'a']);
    expect(chooseEntries(planned, ['zzz']).unknown).toEqual(['zzz']);
    expect(chooseEntries(planned, undefined).chosen.length).toBe(5);
  });
});

describe(bombReason.name, () => {
  const limits = { maxEntries: 3, maxBytes: 100 * 1024 * 1024, maxRatio: 100 };
  it('refuses too many entries, too many bytes, and too many bytes for the archive', () => {
    expect(bombReason(planEntries([entry('1'), entry('2'), entry('3'), entry('4')]), 1000, limits)).toMatch(/entries/);
    expect(bombReason(planEntries([entry('1', { size: 200 * 1024 * 1024 })]), 10 ** 9, limits)).toMatch(/bytes/);
    expect(bombReason(planEntries([entry('1', { size: 50 * 1024 * 1024 })]), 1000, limits)).toMatch(/times/);
    expect(bombReason(planEntries([entry('1', { size: 50 * 1024 })]), 10, limits)).toBeNull();
  });
});
