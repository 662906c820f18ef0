import { beforeEach, describe, expect, it } from 'vitest';
import type { DriveFile } from '@haul/shared';
import { DEFAULT_DISPLAY, trimModes, useDisplayMode, type DisplayMode } from './display-mode-store';
import { rangeBetween, useSelection } from './selection-store';
import { sortFiles } from './sort';

const order = ['a', 'b', 'c', 'd', 'e'];

describe('selection', () => {
  beforeEach(() => useSelection.getState().clear());

  it('selects one item on a plain click and replaces the selection', () => {
    const s = useSelection.getState();
    s.click('b', {}, order);
    s.click('d', {}, order);
    expect([...useSelection.getState().selected]).toEqual(['d']);
  });

  it('toggles with ctrl/cmd and selects a range from the anchor with shift', () => {
    const s = useSelection.getState();
    s.click('b', {}, order);
    s.click('d', { range: true }, order);
    expect([...useSelection.getState().selected].sort()).toEqual(['b', 'c', 'd']);
    s.click('c', { toggle: true }, order);
    expect([...useSelection.getState().selected].sort()).toEqual(['b', 'd']);
    // The toggled item is the new anchor: shift+ctrl adds a range to what is there.
    s.click('e', { range: true, toggle: true }, order);
    expect([...useSelection.getState().selected].sort()).toEqual(['b', 'c', 'd', 'e']);
  });

  it('ranges work upwards, select all, and drop ids no longer shown', () => {
    expect(rangeBetween(order, 'd', 'b')).toEqual(['b', 'c', 'd']);
    useSelection.getState().selectAll(order);
    expect(useSelection.getState().selected.size).toBe(5);
    useSelection.getState().keepOnly(['a', 'e']);
    expect([...useSelection.getState().selected].sort()).toEqual(['a', 'e']);
  });
});

describe('display mode', () => {
  beforeEach(() => useDisplayMode.setState({ global: DEFAULT_DISPLAY, orderSettingGlobal: true, viewSettingGlobal: true, byKey: {} }));

  it('defaults to modified time descending, folders on top, grid', () => {
    expect(useDisplayMode.getState().modeFor('all:')).toMatchObject({
      orderType: 'MODIFY_TIME_DESC',
      pinFoldersTop: true,
      viewType: 'grid',
    });
  });

  it('applies a change everywhere when global, or to one folder when per folder', () => {
    const s = useDisplayMode.getState();
    s.update('all:x', { viewType: 'list' });
    expect(useDisplayMode.getState().modeFor('all:y').viewType).toBe('list');
    s.setGlobalSettings({ orderSettingGlobal: false });
    useDisplayMode.getState().update('all:x', { orderType: 'NAME_ASC' });
    expect(useDisplayMode.getState().modeFor('all:x').orderType).toBe('NAME_ASC');
    expect(useDisplayMode.getState().modeFor('all:y').orderType).toBe('MODIFY_TIME_DESC');
  });

  it('trims per-folder entries to the 1000 newest once above 2000', () => {
    const many: Record<string, DisplayMode> = {};
    for (let i = 0; i < 2001; i++) many[`k${i}`] = { ...DEFAULT_DISPLAY, last_modified: i };
    const kept = trimModes(many);
    expect(Object.keys(kept)).toHaveLength(1000);
    expect(kept.k2000).toBeDefined();
    expect(kept.k1000).toBeUndefined();
    const few = { a: DEFAULT_DISPLAY };
    expect(trimModes(few)).toBe(few);
  });
});

const f = (id: string, name: string, kind: 'drive#file' | 'drive#folder', size: number, t: string) =>
  ({
    id,
    name,
    kind,
    size: String(size),
    modified_time: t,
    file_extension: name.includes('.') ? name.slice(name.lastIndexOf('.')) : '',
  }) as DriveFile;

describe('sortFiles', () => {
  const items = () => [
    f('1', 'b.txt', 'drive#file', 30, '2026-01-03T00:00:00Z'),
    f('2', 'A folder', 'drive#folder', 0, '2026-01-01T00:00:00Z'),
    f('3', 'a10.txt', 'drive#file', 10, '2026-01-02T00:00:00Z'),
    f('4', 'a9.txt', 'drive#file', 20, '2026-01-04T00:00:00Z'),
    f('5', 'Z folder', 'drive#folder', 0, '2026-01-05T00:00:00Z'),
  ];
  const names = (xs: DriveFile[]) => xs.map((x) => x.name);

  it('pins folders on top and orders names naturally', () => {
    expect(names(sortFiles(items(), 'NAME_ASC', true))).toEqual(['A folder', 'Z folder', 'a9.txt', 'a10.txt', 'b.txt']);
    expect(names(sortFiles(items(), 'NAME_DESC', false))).toEqual(['Z folder', 'b.txt', 'a10.txt', 'a9.txt', 'A folder']);
  });

  it('sorts by type either way, then by name A to Z', () => {
    const mixed = () => [f('1', 'b.pdf', 'drive#file', 1, 't'), f('2', 'c.jpg', 'drive#file', 1, 't'), f('3', 'a.pdf', 'drive#file', 1, 't'), f('4', 'd.txt', 'drive#file', 1, 't')];
    expect(names(sortFiles(mixed(), 'TYPE_ASC', true))).toEqual(['c.jpg', 'a.pdf', 'b.pdf', 'd.txt']);
    expect(names(sortFiles(mixed(), 'TYPE_DESC', true))).toEqual(['d.txt', 'a.pdf', 'b.pdf', 'c.jpg']);
  });

  it('sorts by time, and folders by time when sorting by size', () => {
    expect(names(sortFiles(items(), 'MODIFY_TIME_DESC', true))).toEqual(['Z folder', 'A folder', 'a9.txt', 'b.txt', 'a10.txt']);
    expect(names(sortFiles(items(), 'SIZE_DESC', true))).toEqual(['Z folder', 'A folder', 'b.txt', 'a9.txt', 'a10.txt']);
    expect(names(sortFiles(items(), 'SIZE_ASC', true))).toEqual(['A folder', 'Z folder', 'a10.txt', 'a9.txt', 'b.txt']);
  });
});

describe('display mode kept per folder', () => {
  beforeEach(() => useDisplayMode.setState({ global: DEFAULT_DISPLAY, orderSettingGlobal: false, viewSettingGlobal: false, byKey: {} }));

  it('changes only the folder it was made in, the others keep the global mode', () => {
    useDisplayMode.getState().update('all:a', { viewType: 'list', orderType: 'SIZE_DESC' });
    expect(useDisplayMode.getState().modeFor('all:a')).toMatchObject({ viewType: 'list', orderType: 'SIZE_DESC' });
    expect(useDisplayMode.getState().modeFor('all:b')).toMatchObject({ viewType: 'grid', orderType: 'MODIFY_TIME_DESC' });
  });
});
