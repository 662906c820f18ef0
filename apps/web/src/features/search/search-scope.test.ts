import { describe, expect, it } from 'vitest';
import { entryFolderOf, readSearch, writeSearch } from './search-state';
import { searchFilters } from './search-filters';

describe('search scope in the address', () => {
  it('keeps the folder a search started in and the chosen scope across a reload', () => {
    const qs = writeSearch(new URLSearchParams(), { name: 'report', folderId: 'F1' }, 'F1');
    expect(qs.get('entry_folder_id')).toBe('F1');
    expect(qs.get('folder_id')).toBe('F1');
    const back = new URLSearchParams(qs.toString());
    expect(readSearch(back)).toMatchObject({ name: 'report', folderId: 'F1' });
    expect(entryFolderOf(back)).toBe('F1');
    expect(searchFilters(readSearch(back)!)).toEqual({ name: { contains: 'report' }, folder_id: { eq: 'F1' } });
  });

  it('searches all files when the scope is widened, still offering the folder it started in', () => {
    const all = writeSearch(new URLSearchParams('entry_folder_id=F1&folder_id=F1&action=search&name=x'), { name: 'x' }, 'F1');
    expect(all.get('folder_id')).toBeNull();
    expect(entryFolderOf(all)).toBe('F1');
    expect(searchFilters(readSearch(all)!)).toEqual({ name: { contains: 'x' } });
  });

  it('is no search by itself', () => {
    expect(readSearch(new URLSearchParams('action=search&folder_id=F1'))).toBeNull();
    expect(writeSearch(new URLSearchParams('a=1'), { folderId: 'F1' }, 'F1').toString()).toBe('a=1');
  });
});
