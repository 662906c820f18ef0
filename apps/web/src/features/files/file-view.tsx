/**
 * The virtualized list or grid of a file listing (TanStack Virtual, so 100,000 items scroll smoothly; an ARIA grid in
 * both views), with selection by click, ctrl/cmd, shift and drag-box, the keyboard, the context menu, and drag-to-move.
 */
import * as ContextMenu from '@radix-ui/react-context-menu';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DriveFile, SortOrder } from '@haul/shared';
import { useIsMobile } from '../layout/use-media';
import { actionForKey, menuActions, openFile, type ActionContext, type View } from './actions';
import { idsInBox, idsInSwipe, type Box } from './box-select';
import { useDialog } from '../../app/dialogs/dialog-store';
import { FileCard, FileRow, type FileActivity } from './file-item';
import { isFolder } from './files-api';
import { CARD_H, CARD_W, LOCATION_H, ROW_H, ROW_H_MOBILE, gridColumns } from './list-metrics';
import { useClientSize, useHeight } from './element-size';
import { LIST_HEAD, ListHead } from './list-head';
import { contextMenuOn, isMenuKey } from './menu-key';
import { idTest, pickSelected, useSelection } from './selection-store';
import { rowSpan, steadyRange } from './steady-range';
import { useHighlight } from './use-highlight';

const OVERSCAN_PX = 6 * ROW_H;
const DRAG_TYPE = 'application/x-haul-ids';

export interface FileViewProps {
  files: DriveFile[];
  viewType: 'list' | 'grid';
  view: View;
  keyword?: string;
  showTimeLeft?: boolean;
  /** Each item says which folder it is in (search results). */
  showLocation?: boolean;
  /** Recent: what last happened to each file, by id (the rows show it instead of the modified time). */
  activity?: ReadonlyMap<string, FileActivity>;
  /** Items to drop onto a folder (drag to move). */
  onDropInto?: (files: DriveFile[], folder: DriveFile) => void;
  /** Context menu items for a right click on empty space. */
  backgroundMenu?: ReactNode;
  /** The list's sort order, and how to change it: with both, the list view's column titles sort. */
  order?: SortOrder;
  onOrder?: (order: SortOrder) => void;
  /** Called when the end of the list scrolls into view (more pages to load). */
  onEndReached?: () => void;
  label: string;
}

export function FileView(props: FileViewProps) {
  const { files, viewType, view, keyword, showTimeLeft, showLocation, activity, onDropInto, backgroundMenu, onEndReached, label } = props;
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { width, height } = useClientSize(scrollRef);
  const [focus, setFocus] = useState(0);
  const [dropId, setDropId] = useState<string | null>(null);
  const [box, setBox] = useState<Box | null>(null);
  const [menuOnItem, setMenuOnItem] = useState(false);
  const [swipe, setSwipe] = useState<{ from: number; base: Set<string> } | null>(null);
  // The item a finger is on: a long press opens the menu on a timer, with no contextmenu event to say where.
  const pressed = useRef<[DriveFile, number] | null>(null);
  const { selected, click, set, selectAll, clear, keepOnly } = useSelection();

  const order = useMemo(() => files.map((f) => f.id), [files]);
  const isSelected = useMemo(() => idTest(selected), [selected]);
  useEffect(() => keepOnly(order), [order, keepOnly]);

  const grid = viewType === 'grid';
  // The column titles are the grid's first row, above the files (so the files' row numbers start at 2).
  const head = !grid && !mobile;
  const headRows = head ? 1 : 0;
  const { ref: headRef, height: headH } = useHeight(head);
  const cols = grid ? gridColumns(width) : 1;
  const rowH = grid ? CARD_H + (showLocation ? LOCATION_H : 0) : mobile ? ROW_H_MOBILE : ROW_H;
  const rowCount = Math.ceil(files.length / cols);
  // Rows rendered beyond each edge: about 300 px, so the grid's tall rows are not rendered three times as many pixels
  // ahead as the list's.
  const overscan = Math.ceil(OVERSCAN_PX / rowH);
  const span = rowSpan(height, rowH, overscan);
  const rangeExtractor = useMemo(() => steadyRange(span), [span]);
  // The rows start below the titles, and a row scrolled into view is not left under them.
  const virtualizer = useVirtualizer({
    rangeExtractor,
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowH,
    overscan,
    paddingStart: headH,
    scrollPaddingStart: headH,
  });
  useEffect(() => virtualizer.measure(), [rowH, cols, virtualizer]);

  const items = virtualizer.getVirtualItems();
  // A fixed set of slots holds the rendered rows: row i sits in slot `i % slots`, so a row scrolled out lends its
  // elements to the row scrolled in and a fast scroll updates text instead of creating, moving and dropping elements
  // (whose collection paused frames). The rows are consecutive, so no two share a slot while there are at least as
  // many slots as rows; the count only grows, so the slots stay put as the number of rows on screen changes by one.
  // Slots keep their DOM order whatever is on screen (their place comes from a transform, their order for assistive
  // technology from aria-rowindex), and a slot left empty mid-scroll is hidden with the row it last held rather than
  // emptied, to be refilled a frame later.
  const kept = useRef({ files, cols, slots: 0, rows: [] as VirtualItem[] });
  if (kept.current.files !== files || kept.current.cols !== cols || kept.current.slots < items.length)
    kept.current = { files, cols, slots: Math.max(kept.current.slots, items.length), rows: [] };
  const slots = kept.current.slots;
  const shown: (VirtualItem | undefined)[] = [];
  for (const vr of items) shown[vr.index % slots] = kept.current.rows[vr.index % slots] = vr;
  const lastRow = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (onEndReached && rowCount > 0 && lastRow >= rowCount - 3) onEndReached();
  }, [lastRow, rowCount, onEndReached]);

  // Items the screen was opened to point at ("Show in folder", a deep link, a download that landed).
  useHighlight(order, (ids, i) => {
    // After the layout's "new screen, nothing selected" effect, which runs after this one.
    requestAnimationFrame(() => set(ids, ids[0]));
    setFocus(i);
    virtualizer.scrollToIndex(Math.floor(i / cols), { align: 'center' });
  });

  const selectedFiles = () => pickSelected(files, selected);
  const ctx = (list: DriveFile[]): ActionContext => ({ files: list, siblings: files, view, navigate: (to, opts) => void navigate(to, opts) });
  const dialogOpen = () => useDialog.getState().dialog !== null;

  // A link inside an item (a search result's folder) goes where it says; the item is not clicked.
  const onLink = (e: { target: EventTarget }) => (e.target as HTMLElement).closest('a[href]') !== null;
  const onItemClick = (e: MouseEvent, f: DriveFile, index: number) => {
    if (dialogOpen() || onLink(e)) return;
    setFocus(index);
    const toggle = e.ctrlKey || e.metaKey || (e.target as HTMLElement).closest('[data-check]') !== null;
    // On a phone a tap opens, as on every mobile drive, unless something is already selected.
    if (mobile && !toggle && selected.size === 0) return openFile(ctx([f]));
    click(f.id, { toggle: toggle || (mobile && selected.size > 0), range: e.shiftKey }, order);
  };

  const onItemContextMenu = (f: DriveFile, index: number) => {
    setMenuOnItem(true);
    setFocus(index);
    if (!selected.has(f.id)) set([f.id], f.id);
  };

  const moveFocus = (to: number, extend: boolean) => {
    const i = Math.max(0, Math.min(files.length - 1, to));
    const f = files[i];
    if (!f) return;
    setFocus(i);
    click(f.id, { range: extend }, order);
    virtualizer.scrollToIndex(Math.floor(i / cols), { align: 'auto' });
  };

  // The focused item's menu from the keyboard (menu-key.ts), once the item is in view.
  const openMenuAtFocus = () => {
    if (!files[focus]) return;
    virtualizer.scrollToIndex(Math.floor(focus / cols), { align: 'auto' });
    requestAnimationFrame(() => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${focus}"]`);
      if (el) contextMenuOn(el);
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // A column title's keys are its own: Enter and Space sort, and open nothing.
    if (dialogOpen() || (e.target as HTMLElement).tagName === 'INPUT' || (e.target as HTMLElement).closest(LIST_HEAD)) return;
    if (isMenuKey(e)) {
      e.preventDefault();
      openMenuAtFocus();
      return;
    }
    const step = { ArrowDown: cols, ArrowUp: -cols, ArrowRight: grid ? 1 : 0, ArrowLeft: grid ? -1 : 0 }[e.key];
    if (step) {
      e.preventDefault();
      moveFocus(focus + step, e.shiftKey);
      return;
    }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      selectAll(order);
      return;
    }
    if (e.key === 'Escape') return clear();
    const sel = selectedFiles();
    const action = sel.length ? actionForKey(e.key === 'Backspace' && e.metaKey ? 'Delete' : e.key, ctx(sel)) : undefined;
    if (action) {
      e.preventDefault();
      void action.perform(ctx(sel));
    }
  };

  // Drag-box selection with a mouse, starting on empty space.
  const contentPoint = (e: PointerEvent) => {
    const r = scrollRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top + scrollRef.current!.scrollTop };
  };
  const indexAt = (x: number, y: number) => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-index]');
    return el ? Number(el.dataset.index) : -1;
  };
  const onPointerDown = (e: PointerEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest(LIST_HEAD)) return;
    pressed.current = e.pointerType === 'mouse' ? null : itemOf(e);
    if (e.pointerType !== 'mouse' && target.closest('[data-check]')) {
      // Swipe selection: a finger drawn down the check boxes selects every item it passes.
      const i = indexAt(e.clientX, e.clientY);
      if (i >= 0) setSwipe({ from: i, base: new Set(selected) });
      return;
    }
    if (e.pointerType !== 'mouse' || e.button !== 0 || target.closest('[data-item]')) return;
    const p = contentPoint(e);
    setBox({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
    if (!e.ctrlKey && !e.metaKey) clear();
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    if (swipe) {
      const i = indexAt(e.clientX, e.clientY);
      if (i < 0) return;
      set(idsInSwipe(swipe.base, swipe.from, i, files));
      return;
    }
    if (!box) return;
    const p = contentPoint(e);
    const next = { ...box, x1: p.x, y1: p.y };
    setBox(next);
    set(idsInBox(next, files, { rowH, rowCount, cols, cardW: CARD_W, grid, top: headH }));
  };
  const endBox = () => {
    pressed.current = null;
    setBox(null);
    setSwipe(null);
  };

  const onDragStart = (e: DragEvent, f: DriveFile) => {
    if (!selected.has(f.id)) set([f.id], f.id);
    const ids = selected.has(f.id) ? [...selected] : [f.id];
    e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(ids));
    e.dataTransfer.effectAllowed = 'move';
  };
  const onDragOver = (e: DragEvent, f: DriveFile) => {
    if (!onDropInto || !isFolder(f) || !e.dataTransfer.types.includes(DRAG_TYPE) || selected.has(f.id)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    setDropId(f.id);
  };
  const onDrop = (e: DragEvent, folder: DriveFile) => {
    setDropId(null);
    const raw = e.dataTransfer.getData(DRAG_TYPE);
    if (!raw || !onDropInto) return;
    e.preventDefault();
    const moved = pickSelected(files, new Set(JSON.parse(raw) as string[])).filter((x) => x.id !== folder.id);
    if (moved.length) onDropInto(moved, folder);
  };

  // One set of handlers on the list, not seven closures per item: every scroll frame renders dozens of items anew.
  const itemOf = (e: { target: EventTarget }): [DriveFile, number] | null => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const index = el ? Number(el.dataset.index) : -1;
    const f = files[index];
    return f ? [f, index] : null;
  };
  const on =
    <E extends { target: EventTarget }>(handler: (e: E, f: DriveFile, index: number) => void) =>
    (e: E) => {
      const hit = itemOf(e);
      if (hit) handler(e, ...hit);
    };

  const renderItem = (f: DriveFile, index: number, column: number) => {
    const isSel = isSelected(f.id);
    const shared = { selected: isSel, keyword, locale: i18n.language, location: showLocation };
    return (
      <div
        key={column}
        data-item
        data-index={index}
        role={grid ? 'gridcell' : 'row'}
        aria-selected={isSel}
        aria-rowindex={grid ? undefined : index + 1 + headRows}
        // A card is named by all it shows (name, size or date, folder): what a speech user reads on it is its name.
        aria-label={grid ? undefined : f.name}
        className={`${grid ? 'card' : 'row'}${isSel ? ' selected' : ''}${index === focus ? ' focused' : ''}${dropId === f.id ? ' drop' : ''}`}
        style={grid ? { width: `${100 / cols}%` } : undefined}
        draggable={!mobile && view !== 'trash'}
      >
        {grid ? <FileCard file={f} {...shared} /> : <FileRow file={f} showTimeLeft={showTimeLeft} activity={activity?.get(f.id)} {...shared} />}
      </div>
    );
  };

  // Only while the menu is open: filtering 100,000 items on every scroll frame would show.
  const menuFiles = menuOnItem ? selectedFiles() : [];
  const actions = menuOnItem ? menuActions(ctx(menuFiles), mobile) : [];

  return (
    <ContextMenu.Root
      onOpenChange={(open) => {
        if (!open) setMenuOnItem(false);
        else if (pressed.current) onItemContextMenu(...pressed.current);
      }}
    >
      <ContextMenu.Trigger asChild>
        <div
          ref={scrollRef}
          className={`file-view ${grid ? 'grid' : 'list'}${showLocation ? ' with-location' : ''}`}
          tabIndex={0}
          role="grid"
          aria-label={label}
          aria-multiselectable="true"
          aria-rowcount={files.length + headRows}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => isMenuKey(e) && e.preventDefault()}
          onClick={on(onItemClick)}
          onDoubleClick={on((e, f) => !dialogOpen() && !onLink(e) && view !== 'trash' && openFile(ctx([f])))}
          onContextMenu={on((_, f, index) => onItemContextMenu(f, index))}
          onDragStart={on(onDragStart)}
          onDragOver={on(onDragOver)}
          onDragLeave={on((_, f) => setDropId((d) => (d === f.id ? null : d)))}
          onDrop={on(onDrop)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endBox}
          onPointerCancel={endBox}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {head && (
              <ListHead
                ref={headRef}
                showLocation={showLocation}
                timeLabel={showTimeLeft ? t('trash.timeLeft') : activity ? t('recent.activity') : undefined}
                order={props.order}
                onOrder={props.onOrder}
              />
            )}
            {Array.from({ length: slots }, (_, slot) => {
              const vr = shown[slot] ?? kept.current.rows[slot];
              if (!vr) return <div key={slot} className="vrow" hidden />;
              return (
                <div
                  key={slot}
                  className="vrow"
                  hidden={!shown[slot]}
                  role={grid ? 'row' : undefined}
                  aria-rowindex={grid ? vr.index + 1 : undefined}
                  style={{ height: vr.size, transform: `translateY(${vr.start}px)` }}
                >
                  {files.slice(vr.index * cols, vr.index * cols + cols).map((f, j) => renderItem(f, vr.index * cols + j, j))}
                </div>
              );
            })}
            {box && (
              <div
                className="select-box"
                style={{
                  left: Math.min(box.x0, box.x1),
                  top: Math.min(box.y0, box.y1),
                  width: Math.abs(box.x1 - box.x0),
                  height: Math.abs(box.y1 - box.y0),
                }}
              />
            )}
          </div>
        </div>
      </ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu" aria-label={t('actions.menu')}>
          {menuOnItem
            ? actions.map((a) => (
                <ContextMenu.Item
                  key={a.id}
                  className={`menu-item${a.danger ? ' danger' : ''}`}
                  onSelect={() => void a.perform(ctx(menuFiles))}
                >
                  {t(a.labelKey)}
                  {a.shortcut && !mobile && <span className="menu-kbd">{t(`keys.${a.shortcut}`, { defaultValue: a.shortcut })}</span>}
                </ContextMenu.Item>
              ))
            : backgroundMenu}
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
