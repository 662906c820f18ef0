/** The in-memory forms of a big folder's rows: the id index, the selection test and compacted rows. */
import { describe, expect, it } from 'vitest';
import { StringPool, compactFile } from './compact-file';
import { IdIndex, hashId } from './id-index';
import { listedFile } from '../sync/fake-drive';
import { idTest, pickSelected, useSelection } from './selection-store';

const row = (id: string, name = id): { id: string; name: string } => ({ id, name });

describe('IdIndex', () => {
  it('sets, replaces, reads and deletes rows by id', () => {
    const index = new IdIndex<{ id: string; name: string }>();
    index.set(row('a', 'one'));
    index.set(row('b'));
    index.set(row('a', 'two'));
    expect(index.size).toBe(2);
    expect(index.get('a')?.name).toBe('two');
    expect(index.get('zzz')).toBeUndefined();
    expect(index.delete('a')).toBe(true);
    expect(index.delete('a')).toBe(false);
    expect(index.values().map((r) => r.id)).toEqual(['b']);
  });

  it('keeps rows whose hashes collide apart', () => {
    // Find two ids with one hash (30 bits: a few hundred thousand tries at most).
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; !pair; i++) {
      const id = `id-${i}`;
      const h = hashId(id);
      const other = seen.get(h);
      if (other) pair = [other, id];
      else seen.set(h, id);
    }
    const [x, y] = pair;
    const index = new IdIndex<{ id: string; name: string }>();
    index.set(row(x, 'x'));
    index.set(row(y, 'y'));
    index.set(row(y, 'y2'));
    expect(index.size).toBe(2);
    expect(index.get(x)?.name).toBe('x');
    expect(index.get(y)?.name).toBe('y2');
    expect(index.values().map((r) => r.id).sort()).toEqual([x, y].sort());
    expect(index.delete(x)).toBe(true);
    expect(index.get(x)).toBeUndefined();
    expect(index.get(y)?.name).toBe('y2');
    expect(index.size).toBe(1);
  });

  it('gives small integer keys', () => {
    for (const id of ['', 'a', 'F5kRSeFMv621OeVSLYHa', 'é漢字']) {
      const h = hashId(id);
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 30).toBe(true);
    }
  });
});

describe('selection test', () => {
  it('answers like the set, small or large', () => {
    const small = new Set(['b', 'd']);
    const large = new Set(Array.from({ length: 40 }, (_, i) => `f${i}`));
    for (const ids of [new Set<string>(), small, large]) {
      const has = idTest(ids);
      for (const id of ['a', 'b', 'd', 'f3', 'f39', 'f40']) expect(has(id)).toBe(ids.has(id));
    }
  });

  it('picks the selected items in list order and keeps only shown ones', () => {
    const files = ['a', 'b', 'c', 'd'].map((id) => row(id));
    expect(pickSelected(files, new Set(['d', 'b'])).map((f) => f.id)).toEqual(['b', 'd']);
    expect(pickSelected(undefined, new Set(['a']))).toEqual([]);
    useSelection.getState().set(['a', 'c', 'x']);
    useSelection.getState().keepOnly(['a', 'b', 'c']);
    expect([...useSelection.getState().selected].sort()).toEqual(['a', 'c']);
  });
});

describe('compactFile', () => {
  const file = listedFile;

  it('keeps every field of the listing and drops local ones', () => {
    const f = { ...file({ params: { a: '1' }, tags: [{ id: 't' } as never] }), local_sync_timestamp: 5 };
    const c = compactFile(f, new StringPool());
    const { local_sync_timestamp: _, ...listed } = f;
    expect(c).toEqual({ ...listed, medias: undefined });
    expect('local_sync_timestamp' in c).toBe(false);
  });

  it('shares one empty tags and params between rows', () => {
    // (Strings are shared too, but JavaScript cannot tell two equal strings apart.)
    const pool = new StringPool();
    const a = compactFile(file({ id: 'a', tags: [], params: {} }), pool);
    const b = compactFile(file({ id: 'b', tags: [], params: {} }), pool);
    expect(a.tags).toBe(b.tags);
    expect(a.params).toBe(b.params);
    expect(Object.isFrozen(a.tags)).toBe(true);
  });
});
