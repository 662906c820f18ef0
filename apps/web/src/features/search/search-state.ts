/** Search mode lives in the route (seed 000 §2): action=search plus the filters, so a search survives a reload. */
import { isEmptySearch } from '@haul/shared/plain';
import type { SearchFilter } from '@haul/shared';
import { SEARCH_HISTORY_KEY } from '../settings/setting-keys';
import { saveSetting } from '../settings/settings-sync';

/** Views that can be searched; others send a search to all files. */
export const SEARCHABLE_VIEWS = ['all', 'recent', 'trash', 'star', 'bookmarks'] as const;
export const HISTORY_SIZE = 3;

export function readSearch(params: URLSearchParams): SearchFilter | null {
  if (params.get('action') !== 'search') return null;
  const f: SearchFilter = {
    name: params.get('name') || undefined,
    star: params.get('star') === '1' || undefined,
    kind: params.get('kind') || undefined,
    mimeType: params.get('mime_type') || undefined,
    platform: params.get('platform') || undefined,
  };
  if (isEmptySearch(f)) return null;
  // Only a scope the search started in (or under) is taken from the address.
  const folderId = params.get('folder_id');
  return folderId ? { ...f, folderId } : f;
}

/** The folder a search was started in, when it was started inside one (it offers "This folder"). */
export const entryFolderOf = (params: URLSearchParams): string | undefined => params.get('entry_folder_id') || undefined;

/**
 * The query string for a search; an empty filter leaves search mode (back to the folder listing). `folderId` in the
 * filter is the scope ("This folder"); its absence with an entry folder is "All files".
 */
export function writeSearch(params: URLSearchParams, f: SearchFilter, entryFolderId?: string): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of ['action', 'name', 'star', 'kind', 'mime_type', 'platform', 'entry_folder_id', 'folder_id']) next.delete(k);
  if (isEmptySearch(f)) return next;
  next.set('action', 'search');
  if (f.name) next.set('name', f.name);
  if (f.star) next.set('star', '1');
  if (f.kind) next.set('kind', f.kind);
  if (f.mimeType) next.set('mime_type', f.mimeType);
  if (f.platform) next.set('platform', f.platform);
  if (entryFolderId) next.set('entry_folder_id', entryFolderId);
  if (f.folderId) next.set('folder_id', f.folderId);
  return next;
}

/** The three most recent unique terms, newest first. */
export function pushHistory(history: readonly string[], term: string): string[] {
  const t = term.trim();
  if (!t) return [...history];
  return [t, ...history.filter((h) => h !== t)].slice(0, HISTORY_SIZE);
}

export function loadHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(SEARCH_HISTORY_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string').slice(0, HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

export function saveHistory(h: string[]): void {
  localStorage.setItem(SEARCH_HISTORY_KEY, JSON.stringify(h));
  saveSetting('search_history', h);
}

/** Splits a name around case-insensitive matches of the keyword, for highlighting. */
export function highlightParts(name: string, keyword: string | undefined): { text: string; hit: boolean }[] {
  if (!keyword) return [{ text: name, hit: false }];
  const lower = name.toLowerCase();
  const k = keyword.toLowerCase();
  const parts: { text: string; hit: boolean }[] = [];
  let i = 0;
  for (let j = lower.indexOf(k); j >= 0 && k; j = lower.indexOf(k, i)) {
    if (j > i) parts.push({ text: name.slice(i, j), hit: false });
    parts.push({ text: name.slice(j, j + k.length), hit: true });
    i = j + k.length;
  }
  if (i < name.length) parts.push({ text: name.slice(i), hit: false });
  return parts;
}
