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
      const v = new Set(visible);
      const next = [...s.selected].filter((id) => v.has(id));
      return next.length === s.selected.size ? s : { selected: new Set(next) };
    }),
}));
