/** Which items are selected: single click, ctrl/cmd toggle, shift range from the anchor, select all, box select. */
import { create } from 'zustand';

export interface ClickModifiers {
  toggle?: boolean;
  range?: boolean;
}

interface SelectionState {
  selected: ReadonlySet<string>;
  anchor: string | null;
  /** Applies a click on `id` given the ids in the order they are shown. */
  click: (id: string, mods: ClickModifiers, order: readonly string[]) => void;
  set: (ids: Iterable<string>, anchor?: string | null) => void;
  selectAll: (order: readonly string[]) => void;
  clear: () => void;
  /** Drops ids no longer shown (after a trash, move or a folder change). */
  keepOnly: (visible: readonly string[]) => void;
}

export function rangeBetween(order: readonly string[], a: string, b: string): string[] {
  const i = order.indexOf(a);
  const j = order.indexOf(b);
  if (i < 0 || j < 0) return [b];
  return order.slice(Math.min(i, j), Math.max(i, j) + 1);
}

/** Up to this many selected ids are searched in a list; larger selections use the Set. */
const SMALL = 16;

/**
 * A membership test for a set of ids that leaves the tested ids alone. Looking a string up in a Set internalizes it
 * (see id-index), so testing every row of a 100,000-row folder against even an empty selection would put all their
 * ids in V8's string table and slow every later garbage collection. Selections are mostly a few items.
 */
export function idTest(ids: ReadonlySet<string>): (id: string) => boolean {
  if (ids.size === 0) return () => false;
  if (ids.size > SMALL) return (id) => ids.has(id);
  const list = [...ids];
  return (id) => list.includes(id);
}

/** The selected items of a list, in its order. */
export function pickSelected<T extends { id: string }>(files: readonly T[] | undefined, selected: ReadonlySet<string>): T[] {
  const has = idTest(selected);
  return files?.filter((f) => has(f.id)) ?? [];
}

export const useSelection = create<SelectionState>()((set) => ({
  selected: new Set(),
  anchor: null,
  click: (id, mods, order) =>
    set((s) => {
      if (mods.range && s.anchor) {
        const range = rangeBetween(order, s.anchor, id);
        const base = mods.toggle ? new Set(s.selected) : new Set<string>();
        range.forEach((r) => base.add(r));
        return { selected: base };
      }
      if (mods.toggle) {
        const next = new Set(s.selected);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return { selected: next, anchor: id };
      }
      return { selected: new Set([id]), anchor: id };
    }),
  set: (ids, anchor = null) => set({ selected: new Set(ids), anchor }),
  selectAll: (order) => set({ selected: new Set(order) }),
  clear: () => set({ selected: new Set(), anchor: null }),
  keepOnly: (visible) =>
    set((s) => {
      const next = visible.filter(idTest(s.selected));
      return next.length === s.selected.size ? s : { selected: new Set(next) };
    }),
}));
