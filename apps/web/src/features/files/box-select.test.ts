import { describe, expect, it } from 'vitest';
import type { DriveFile } from '@haul/shared';
import { idsInBox, idsInSwipe } from './box-select';

const files = Array.from({ length: 10 }, (_, i) => ({ id: `f${i}` }) as DriveFile);

describe('drag box and swipe selection', () => {
  it('selects the rows a box touches in the list, whichever way it was drawn', () => {
    const list = { rowH: 48, rowCount: 10, cols: 1, cardW: 150, grid: false };
    expect(idsInBox({ x0: 300, y0: 100, x1: 5, y1: 50 }, files, list)).toEqual(['f1', 'f2']);
    // Past the end: only the items there are.
    expect(idsInBox({ x0: 0, y0: 430, x1: 0, y1: 2000 }, files, list)).toEqual(['f8', 'f9']);
  });

  it('counts the rows from below the column titles', () => {
    const list = { rowH: 48, rowCount: 10, cols: 1, cardW: 150, grid: false, top: 30 };
    expect(idsInBox({ x0: 300, y0: 130, x1: 5, y1: 80 }, files, list)).toEqual(['f1', 'f2']);
    // A box that reaches up into the titles starts at the first row.
    expect(idsInBox({ x0: 0, y0: 5, x1: 0, y1: 40 }, files, list)).toEqual(['f0']);
  });

  it('selects the cards a box touches in the grid, columns and rows', () => {
    const grid = { rowH: 172, rowCount: 3, cols: 4, cardW: 150, grid: true };
    expect(idsInBox({ x0: 160, y0: 10, x1: 320, y1: 200 }, files, grid)).toEqual(['f1', 'f2', 'f5', 'f6']);
    // The last row holds two cards: empty slots select nothing.
    expect(idsInBox({ x0: 0, y0: 350, x1: 599, y1: 360 }, files, grid)).toEqual(['f8', 'f9']);
  });

  it('adds every item a swipe passes to what was selected before, up or down', () => {
    expect([...idsInSwipe(new Set(['f0']), 5, 3, files)].sort()).toEqual(['f0', 'f3', 'f4', 'f5']);
    expect([...idsInSwipe(new Set(), 8, 12, files)].sort()).toEqual(['f8', 'f9']);
  });
});
