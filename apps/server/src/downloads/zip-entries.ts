/**
 * What a zip holds: the chosen items and everything below them that the reader may read, as safe, unique paths in
 * the order they are written (each folder, then what it holds, by name). Folders are entries too, so empty ones stay.
 */
import { FILE_KIND, FOLDER_KIND, PHASE } from '@haul/shared';
import type { FileRow } from '../db/schema.js';

export interface ZipItem {
  /** The path inside the zip: '/'-separated; a folder's ends with '/'. */
  path: string;
  dir: boolean;
  size: number;
  hash: string;
  mime: string;
  modified: number;
}

/** Control characters (C0, DEL, C1) become '_'. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * One path segment made safe: no separator, no control character, never '', '.' or '..' (which unzip tools would
 * read as a step up), so no entry can land outside the folder it is unpacked into.
 */
export function safeSegment(name: string): string {
  const s = name.replace(CONTROL, '_').replace(/[/\\]/g, '_').trim();
  return s === '' || s === '.' || s === '..' ? '_' : s;
}

/** `name` with " (n)" before its extension, for a second item of the same name in one folder. */
function numbered(name: string, n: number, dir: boolean): string {
  const dot = dir ? -1 : name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** A name not yet used in a folder (compared without case, as Windows and macOS unpack). */
function claim(taken: Set<string>, name: string, dir: boolean): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = numbered(name, n, dir);
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Whether a row belongs in a zip: a finished file or a folder, not trashed; `shows` adds the reader's own rule. */
const readable = (r: FileRow) => !r.trashed && (r.kind === FOLDER_KIND || (r.kind === FILE_KIND && r.phase === PHASE.COMPLETE && !!r.hash));

/**
 * The zip's items: `roots` (in the order chosen) with what `rows` holds below them. A row is included only when its
 * parent is, so what sits below a left-out folder (trashed, or not visible through a share) is left out too.
 */
export function zipItems(roots: FileRow[], rows: FileRow[], shows: (r: FileRow) => boolean = () => true): ZipItem[] {
  const children = new Map<string, FileRow[]>();
  for (const r of rows) {
    if (!readable(r) || !shows(r)) continue;
    const list = children.get(r.parent_id) ?? [];
    list.push(r);
    children.set(r.parent_id, list);
  }
  const items: ZipItem[] = [];
  const seen = new Set<string>();
  const add = (row: FileRow, prefix: string, taken: Set<string>) => {
    if (seen.has(row.id)) return; // a chosen item inside a chosen folder comes once, where the folder puts it
    seen.add(row.id);
    const dir = row.kind === FOLDER_KIND;
    const path = prefix + claim(taken, safeSegment(row.name), dir);
    items.push({ path: dir ? `${path}/` : path, dir, size: dir ? 0 : row.size, hash: row.hash, mime: row.mime_type, modified: row.modified_time });
    if (!dir) return;
    const inner = new Set<string>();
    const kids = (children.get(row.id) ?? []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const kid of kids) add(kid, `${path}/`, inner);
  };
  const top = new Set<string>();
  const rootIds = new Set(roots.map((r) => r.id));
  // A chosen item below another chosen folder is written inside that folder, not twice.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const underChosen = (r: FileRow) => {
    for (let p = byId.get(r.parent_id), depth = 0; p && depth < 1000; p = byId.get(p.parent_id), depth++) if (rootIds.has(p.id)) return true;
    return false;
  };
  for (const root of roots) if (readable(root) && shows(root) && !underChosen(root)) add(root, '', top);
  return items;
}

/** The zip's name: the item's own for one item, else the first one's with how many more ("Photos (+2)"). */
export function zipName(roots: Pick<FileRow, 'name'>[]): string {
  const first = safeSegment(roots[0]?.name ?? 'download');
  return `${roots.length > 1 ? `${first} (+${roots.length - 1})` : first}.zip`;
}
