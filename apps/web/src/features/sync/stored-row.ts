/**
 * A file row as the local database keeps it. IndexedDB copies every field of every row it stores, so the fields
 * most rows hold at one value (no icon, no download link, no tags or params, not sensitive, complete, not trashed)
 * are left out when they hold it and put back when a row is read: the row seed 001 lists for the local copy, with
 * nothing lost. bench/README.md ("web app: three indexes and the seed's local row") has what it saves.
 * `star` is left out when 0 for the index's sake: IndexedDB leaves a row whose index key it cannot make (a missing
 * field) out of that index, so `[user_id+star+id]` holds the starred rows only, not one entry for every file.
 */
import { PHASE } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';

/** A file row of the local copy, as the app reads it. */
export interface LocalFile extends DriveFile {
  /** When a sync (or a change made here) last wrote this row (epoch ms); rows of a synced slice older than the sync's start are stale. */
  local_sync_timestamp: number;
}

export const NO_TAGS: DriveFile['tags'] = Object.freeze([]) as unknown as DriveFile['tags'];
export const NO_PARAMS: DriveFile['params'] = Object.freeze({}) as DriveFile['params'];

/** What the files store holds: the keys it is indexed by are always there, but for `star` (kept only when set). */
export type StoredFile = Partial<LocalFile> & Pick<LocalFile, 'id' | 'user_id' | 'parent_id' | 'local_sync_timestamp'>;

const DEFAULTS: Partial<LocalFile> = {
  star: 0,
  icon_link: '',
  web_content_link: '',
  tags: NO_TAGS,
  params: NO_PARAMS,
  sensitive: 0,
  audit: null,
  phase: PHASE.COMPLETE,
  trashed: false,
  delete_time: '',
};
const FIELDS = Object.keys(DEFAULTS) as (keyof LocalFile)[];

/** Whether a field holds its usual value: an empty list of tags, an empty map of params, else the value itself. */
const isDefault = (key: string, v: unknown) => {
  if (key === 'tags') return Array.isArray(v) && v.length === 0;
  if (key === 'params') return !!v && typeof v === 'object' && Object.keys(v).length === 0;
  return key in DEFAULTS && v === DEFAULTS[key as keyof LocalFile];
};

/** The row without the fields that hold their usual value. */
export function toStored(row: LocalFile): StoredFile {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    const v = row[key as keyof LocalFile];
    if (v !== undefined && !isDefault(key, v)) out[key] = v;
  }
  return out as StoredFile;
}

/** The whole row again, filled in place (a row read from IndexedDB is a fresh copy). */
export function fromStored(row: StoredFile): LocalFile {
  const r = row as Record<string, unknown>;
  for (const key of FIELDS) if (!(key in r)) r[key] = DEFAULTS[key];
  return row as LocalFile;
}
