import { describe, expect, it } from 'vitest';
import { buildTree, filePaths } from './archive-tree';
import type { ArchiveEntry } from './archives-api';

const e = (path: string, more: Partial<ArchiveEntry> = {}): ArchiveEntry => ({
  path,
  name: path.split('/').pop()!,
  kind: 'drive#file',
  size: '10',
  modified_time: '',
  encrypted: false,
  skipped: '',
  ...more,
});

describe(buildTree.name, () => {
  it('nests entries under their folders, folders first, and sums folder sizes', () => {
    const tree = buildTree([e('b.txt'), e('d/x.bin', { size: '5' }), e('d/', { kind: 'drive#folder', size: '0' }), e('d/e/y.bin', { size: '7' })]);
    expect(tree.map((n) => n.name)).toEqual(['d', 'b.txt']);
    const d = tree[0]!;
    expect(d.children.map((n) => n.name)).toEqual(['e', 'x.bin']);
    expect(d.size).toBe(12);
    expect(filePaths(d)).toEqual(['d/e/y.bin', 'd/x.bin']);
  });

  it('leaves skipped entries out of what a folder chooses', () => {
    const [d] = buildTree([e('d/ok.txt'), e('d/link', { skipped: 'link' })]);
    expect(filePaths(d!)).toEqual(['d/ok.txt']);
  });
});
