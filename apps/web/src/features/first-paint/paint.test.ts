import { afterEach, describe, expect, it } from 'vitest';
import { FOLDER_KIND, PHASE } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { DEFAULT_DISPLAY, type DisplayMode } from '../files/display-mode';
import { dropFirstPaint } from './drop';
import { paintShell, type FirstPaint } from './paint';
import { FIRST_PAINT_ID, FIRST_PAINT_KEYS } from './paint-keys';
import { NAV } from '../layout/nav-items';

const file = (name: string, minute: number, extra: Partial<DriveFile> = {}) =>
  ({
    id: `id-${name}`,
    name,
    kind: 'drive#file',
    size: '2048',
    mime_type: '',
    file_extension: name.split('.').pop() ?? '',
    modified_time: `2026-11-2${minute}T10:00:00Z`,
    star: 0,
    trashed: false,
    phase: PHASE.COMPLETE,
    ...extra,
  }) as DriveFile;

const words = { 'nav.all': 'Todos los archivos', 'nav.recent': 'Recientes', 'files.name': 'Nombre', 'files.size': 'Tamaño', 'files.modified': 'Modificado' };
const list: DisplayMode = { ...DEFAULT_DISPLAY, viewType: 'list' };

function paint(p: Partial<FirstPaint>): HTMLElement {
  const { root, fill } = paintShell(document, { files: [], folderId: '', mode: list, locale: 'en-US', words, mobile: false, height: 800, ...p });
  document.body.append(root);
  fill();
  return root;
}
const names = (root: HTMLElement) => [...root.querySelectorAll('.vrow .fname > span:first-child')].map((e) => e.textContent);

afterEach(() => {
  document.body.innerHTML = '';
  delete window.__haulFirstPaintDone;
});

describe('the first paint', () => {
  it('draws the rows in the order the app shows them: folders first, then newest first', () => {
    const files = [file('old.txt', 1), file('new.txt', 5), file('Music', 2, { kind: FOLDER_KIND }), file('mid.mp4', 3)];
    const root = paint({ files });
    expect(names(root)).toEqual(['Music', 'new.txt', 'mid.mp4', 'old.txt']);
    // By name when that is the saved order.
    document.body.innerHTML = '';
    expect(names(paint({ files, mode: { ...list, orderType: 'NAME_ASC', pinFoldersTop: false } }))).toEqual(['mid.mp4', 'Music', 'new.txt', 'old.txt']);
  });

  it('shows a name as text, never as markup', () => {
    const root = paint({ files: [file('<img src=x onerror="window.hit=1">.txt', 1)] });
    expect(names(root)).toEqual(['<img src=x onerror="window.hit=1">.txt']);
    expect(root.querySelector('img')).toBeNull();
  });

  it("speaks the visitor's language and titles the root only (a folder's name is not known yet)", () => {
    const root = paint({ files: [file('a.txt', 1)] });
    expect(root.querySelector('h1')!.textContent).toBe('Todos los archivos');
    expect([...root.querySelectorAll('.list-head .list-sort')].map((e) => e.textContent)).toEqual(['Nombre', 'Tamaño', 'Modificado']);
    expect(root.querySelector('.nav-item.active')!.textContent).toBe('Todos los archivos');
    document.body.innerHTML = '';
    expect(paint({ files: [file('a.txt', 1)], folderId: 'f1' }).querySelector('h1')!.textContent).toBe('');
  });

  it('lays out the rows as the app does: sizes, the time, the star, the icon', () => {
    const root = paint({ files: [file('song.mp3', 1, { star: 1 }), file('Docs', 2, { kind: FOLDER_KIND })] });
    const [folder, song] = [...root.querySelectorAll<HTMLElement>('.vrow .row')];
    expect(folder!.querySelector('.fsize')!.textContent).toBe('-');
    expect(song!.querySelector('.fsize')!.textContent).toBe('2.0 KB');
    expect(song!.querySelector('.ficon')!.className).toBe('ficon audio');
    expect(song!.querySelector('.star-badge')).not.toBeNull();
    expect(song!.querySelector('.ftime')!.textContent).toMatch(/Nov 21, 2026/);
    // Rows 48 px apart below the column names, and the list as tall as all of them.
    const vrows = [...root.querySelectorAll<HTMLElement>('.vrow')];
    expect(vrows.map((v) => v.style.height)).toEqual(['48px', '48px']);
  });

  it('draws only the rows the window shows, in a list as tall as the whole page', () => {
    const files = Array.from({ length: 500 }, (_, i) => file(`f${i}.txt`, 1 + (i % 8)));
    const root = paint({ files, mobile: true, height: 600 });
    expect(root.querySelectorAll('.vrow')).toHaveLength(11);
    expect(root.querySelector('.list-head')).toBeNull();
    expect((root.querySelector('.vrow')!.parentElement as HTMLElement).style.height).toBe(`${500 * 60}px`);
  });

  it('draws cards in the grid view, a thumbnail over the icon', () => {
    const root = paint({ files: [file('pic.jpg', 1, { thumbnail_link: '/drive/v1/thumbnails/x' })], mode: DEFAULT_DISPLAY });
    const card = root.querySelector('.card')!;
    expect(card.querySelector('.ficon.big.image')).not.toBeNull();
    expect(card.querySelector<HTMLImageElement>('img.fthumb')!.getAttribute('src')).toBe('/drive/v1/thumbnails/x');
    expect(card.querySelector('.fsub')!.textContent).toBe('2.0 KB');
  });

  it('has its words for every screen of the sidebar', () => {
    for (const n of NAV) expect(FIRST_PAINT_KEYS).toContain(n.key);
  });

  it('is hidden from assistive technology and takes no input, and the app drops it', () => {
    const root = paint({ files: [file('a.txt', 1)] });
    expect(root.id).toBe(FIRST_PAINT_ID);
    expect(root.getAttribute('aria-hidden')).toBe('true');
    expect(root.inert).toBe(true);
    dropFirstPaint();
    expect(document.getElementById(FIRST_PAINT_ID)).toBeNull();
    expect(window.__haulFirstPaintDone).toBe(true);
  });
});
