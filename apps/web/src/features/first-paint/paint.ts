/**
 * The first paint: the open folder's first page drawn with plain DOM, from index.html's early answer, before the app's
 * scripts have loaded. It copies the app's own markup and classes (the shell, the list or the grid, the rows it will
 * show, in its order), so when the app takes over nothing moves. Names are text, never markup.
 */
import { formatSize } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { LOGO_PATHS, PATHS, type IconName } from '../../components/icon-paths';
import type { DisplayMode } from '../files/display-mode';
import { iconFor, isFolder } from '../files/file-kind';
import { formatDate, formatTime } from '../files/format-time';
import { CARD_H, ROW_H, ROW_H_MOBILE, gridColumns } from '../files/list-metrics';
import { sortFiles } from '../files/sort';
import { NAV } from '../layout/nav-items';
import { FIRST_PAINT_ID, type Words } from './paint-keys';

export interface FirstPaint {
  files: DriveFile[];
  /** The folder open ('' for the root: its title is "All files"; a folder's own name is not known yet). */
  folderId: string;
  mode: DisplayMode;
  locale: string;
  words: Words;
  mobile: boolean;
  /** The window's height: only the rows that show are drawn. */
  height: number;
}

type Child = Node | string | null | false;

function el(doc: Document, tag: string, className: string | null, ...children: Child[]): HTMLElement {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  for (const c of children) if (c) e.append(c);
  return e;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes. */
function svgEl(doc: Document, tag: string, attrs: Record<string, string>, ...children: SVGElement[]): SVGElement {
  const e = doc.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** An icon of the set, as components/icon.tsx draws it. */
const icon = (doc: Document, name: IconName, size = 20, extra = '') =>
  svgEl(doc, 'svg', { class: extra ? `i ${extra}` : 'i', viewBox: '0 0 24 24', width: String(size), height: String(size) }, svgEl(doc, 'path', { d: PATHS[name] }));

function logo(doc: Document): HTMLElement {
  const s = svgEl(
    doc,
    'svg',
    { viewBox: '0 0 24 24', width: '28', height: '28' },
    svgEl(doc, 'path', { d: LOGO_PATHS.cloud, fill: 'currentColor', opacity: '.9' }),
    svgEl(doc, 'path', { d: LOGO_PATHS.arrow, stroke: 'var(--bg)', 'stroke-width': '1.8', fill: 'none', 'stroke-linecap': 'round' }),
  );
  return el(doc, 'span', 'brand', el(doc, 'span', 'logo', s, el(doc, 'b', null, 'Haul')));
}

function listRow(doc: Document, f: DriveFile, locale: string): HTMLElement {
  const folder = isFolder(f);
  const kind = iconFor(f);
  const when = formatTime(f.modified_time, locale);
  const size = folder ? '-' : formatSize(f.size, 1, locale);
  const name = el(doc, 'span', 'fname', el(doc, 'span', null, f.name));
  if (f.star === 1) name.append(icon(doc, 'star', 14, 'star-badge'));
  name.append(el(doc, 'small', 'only-mobile fsub', folder ? when : `${size} · ${when}`));
  name.title = f.name;
  return el(
    doc,
    'div',
    'row',
    el(doc, 'span', 'check'),
    el(doc, 'span', `ficon ${kind}`, icon(doc, kind, 22)),
    name,
    el(doc, 'span', 'fsize hide-mobile', size),
    el(doc, 'span', 'ftime hide-mobile', when),
  );
}

function card(doc: Document, f: DriveFile, locale: string, cols: number): HTMLElement {
  const folder = isFolder(f);
  const kind = iconFor(f);
  const pic = el(doc, 'span', `ficon big ${kind}`, icon(doc, kind, 48));
  if (f.thumbnail_link) {
    const img = doc.createElement('img');
    img.className = 'fthumb';
    img.alt = '';
    img.decoding = 'async';
    img.addEventListener('error', () => (img.hidden = true));
    img.src = f.thumbnail_link;
    pic.append(img);
  }
  const sub = el(doc, 'small', 'fsub', f.star === 1 && icon(doc, 'star', 12, 'star-badge'), folder ? formatDate(f.modified_time, locale) : formatSize(f.size, 1, locale));
  const name = el(doc, 'span', 'fname', el(doc, 'span', null, f.name));
  name.title = f.name;
  const c = el(doc, 'div', 'card', el(doc, 'span', 'check'), pic, name, sub);
  c.style.width = `${100 / cols}%`;
  return c;
}

/** The shell with an empty list; `fill` then lays the rows out once the list's width is known. */
export function paintShell(doc: Document, p: FirstPaint): { root: HTMLElement; fill: () => void } {
  const grid = p.mode.viewType === 'grid';
  const nav = el(doc, 'nav', 'sidebar', ...NAV.map((n) => el(doc, 'span', `nav-item${n.to === '/all' ? ' active' : ''}`, icon(doc, n.icon), el(doc, 'span', null, p.words[n.key] ?? ''))));
  const header = el(doc, 'header', 'header', el(doc, 'button', 'icon-btn only-mobile', icon(doc, 'menu')), logo(doc));
  const title = el(doc, 'h1', 'crumb current', p.folderId ? '' : (p.words['nav.all'] ?? ''));
  const list = el(doc, 'div', `file-view ${grid ? 'grid' : 'list'}`);
  const page = el(doc, 'section', 'page', el(doc, 'div', 'toolbar', el(doc, 'nav', 'crumbs', title)), list);
  const root = el(doc, 'div', null, el(doc, 'div', 'shell', header, nav, el(doc, 'main', 'content', page)));
  root.id = FIRST_PAINT_ID;
  root.setAttribute('aria-hidden', 'true');
  root.inert = true;

  const fill = () => {
    const files = sortFiles([...p.files], p.mode.orderType, p.mode.pinFoldersTop, p.locale);
    const cols = grid ? gridColumns(list.clientWidth) : 1;
    const rowH = grid ? CARD_H : p.mobile ? ROW_H_MOBILE : ROW_H;
    const body = el(doc, 'div', null);
    list.append(body);
    let top = 0;
    if (!grid && !p.mobile) {
      const column = (key: string) => el(doc, 'span', null, el(doc, 'span', 'list-sort', p.words[key] ?? ''));
      const head = el(doc, 'div', 'list-head', el(doc, 'span', null), el(doc, 'span', null), column('files.name'), column('files.size'), column('files.modified'));
      body.append(head);
      top = head.offsetHeight;
    }
    const rows = Math.ceil(files.length / cols);
    // Only what the window shows, and the list as tall as the app will make it (the same scroll bar).
    const shown = Math.min(rows, Math.ceil(p.height / rowH) + 1);
    for (let r = 0; r < shown; r++) {
      const vrow = el(doc, 'div', 'vrow');
      vrow.style.height = `${rowH}px`;
      vrow.style.transform = `translateY(${top + r * rowH}px)`;
      for (const f of files.slice(r * cols, r * cols + cols)) vrow.append(grid ? card(doc, f, p.locale, cols) : listRow(doc, f, p.locale));
      body.append(vrow);
    }
    body.style.cssText = `height: ${top + rows * rowH}px; position: relative`;
  };
  return { root, fill };
}
