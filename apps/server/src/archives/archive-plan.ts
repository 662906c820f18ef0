/**
 * What an archive's entries become in the drive, decided before a byte is unpacked. An archive is written by strangers:
 * its paths may climb out with `..`, start at `/` or a drive letter, use backslashes, repeat, or be links. Paths are
 * cut into drive names inside the target folder; `..` and links are skipped, never followed. Bombs are refused from
 * the declared sizes (entry count, total bytes, bytes per byte of archive); the worker holds each entry to its
 * declared size while it streams, so a header that lies cannot pass the limits either.
 */
import { checkName, cleanName } from '@haul/shared';
import type { RawEntry } from './archive-listing.js';
import { listFileSafe } from './entry-names.js';

export type SkipReason = '' | 'link' | 'unsafe_path' | 'duplicate';

export interface PlannedEntry {
  /** The path as listed. */
  path: string;
  /** What 7zz is asked for (the path, or the stored name's bytes in hex: `rawName`). */
  selector: string;
  rawName: boolean;
  /** Where it lands, as drive names under the target folder. */
  target: string[];
  folder: boolean;
  size: number;
  modified: number | null;
  encrypted: boolean;
  skipped: SkipReason;
  /**
   * A file whose stored path repeats: the declared sizes of every copy, in the archive's order, this entry the first.
   * 7zz writes them all when asked for the path; the first `size` bytes are this entry's.
   */
  copies?: number[];
}

/** One segment as a drive name, or null when nothing usable is left. */
function segment(raw: string): string | null {
  const s = cleanName(raw, '');
  return s === '' || checkName(s).problem ? null : s;
}

/** The drive path of an archive path, or null when it climbs (`..`) or has no usable name. */
export function safeEntryPath(raw: string): string[] | null {
  // Both separators (a zip made on Windows), no drive letter, no leading slash: everything lands inside the target.
  const parts = raw.replace(/^[A-Za-z]:(?=[\\/]|$)/, '').split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return null;
  const names = parts.map(segment);
  if (names.length === 0 || names.some((n) => n === null)) return null;
  return names as string[];
}

/** The stored path as 7zz matches it (one char a byte, so names that are not UTF-8 compare too). */
const storedKey = (e: RawEntry) => e.raw.toString('latin1').replace(/\/+$/, '');

/**
 * Every entry with where it lands and why it is skipped; folders that entries only imply are added. Names are cleaned
 * like any stranger's (white space at the ends trimmed: " a.txt" lands as "a.txt"); files whose names become one land
 * under the drive's clash rule ("a (1).txt"). 7zz is asked for a file by its stored path, which matches every entry of
 * that path and everything under it: of files stored twice the first lands and the others are skipped (`copies` says
 * what to discard); a file whose path is also a link's or a folder's, or has entries under it, is skipped.
 */
export function planEntries(raw: RawEntry[]): PlannedEntry[] {
  const out: PlannedEntry[] = [];
  const seen = new Map<string, PlannedEntry>();
  const byKey = new Map<string, RawEntry[]>();
  const parents = new Set<string>();
  for (const e of raw) {
    const key = storedKey(e);
    byKey.set(key, [...(byKey.get(key) ?? []), e]);
    for (let i = key.indexOf('/'); i > 0; i = key.indexOf('/', i + 1)) parents.add(key.slice(0, i));
  }
  for (const e of raw) {
    const target = safeEntryPath(e.path);
    const planned: PlannedEntry = { path: e.path, selector: e.selector, rawName: e.rawName, target: target ?? [], folder: e.folder, size: e.folder ? 0 : e.size, modified: e.modified, encrypted: e.encrypted, skipped: '' };
    const key = storedKey(e);
    const same = byKey.get(key)!;
    const files = same.filter((o) => !o.folder && !o.link);
    if (e.link) planned.skipped = 'link';
    // A stored name 7zz cannot be handed in a list file cannot be told apart from another (or found at all).
    else if (e.rawName && !listFileSafe(e.raw)) planned.skipped = 'duplicate';
    else if (!e.folder && (files[0] !== e || files.length < same.length || parents.has(key))) planned.skipped = 'duplicate';
    else if (!target) planned.skipped = 'unsafe_path';
    else {
      const landing = target.join('/').toLowerCase();
      const before = seen.get(landing);
      // Two folders of one name are one folder; anything else that lands on a taken name is renamed when placed.
      if (before?.folder && e.folder) continue;
      if (!before) seen.set(landing, planned);
      if (!e.folder && files.length > 1) planned.copies = files.map((o) => o.size);
    }
    out.push(planned);
  }
  // Parent folders that have no entry of their own.
  for (const e of [...out]) {
    for (let i = 1; i < e.target.length; i++) {
      const key = e.target.slice(0, i).join('/').toLowerCase();
      if (seen.has(key)) continue;
      const implied: PlannedEntry = { path: e.target.slice(0, i).join('/'), selector: '', rawName: false, target: e.target.slice(0, i), folder: true, size: 0, modified: null, encrypted: false, skipped: '' };
      seen.set(key, implied);
      out.push(implied);
    }
  }
  return out;
}

/** The entries `paths` choose (a folder's path takes what is under it); none: all. Unknown paths are returned apart. */
export function chooseEntries(planned: PlannedEntry[], paths: string[] | undefined): { chosen: PlannedEntry[]; unknown: string[] } {
  const usable = planned.filter((e) => !e.skipped);
  if (!paths || paths.length === 0) return { chosen: usable, unknown: [] };
  const wanted = paths.map((p) => p.replace(/\/+$/, ''));
  const byPath = new Set(planned.map((e) => e.path.replace(/\/+$/, '')));
  const unknown = wanted.filter((p) => !byPath.has(p));
  const chosen = usable.filter((e) => {
    const p = e.path.replace(/\/+$/, '');
    return wanted.some((w) => p === w || p.startsWith(`${w}/`));
  });
  return { chosen, unknown };
}

export interface ArchiveLimits {
  maxEntries: number;
  maxBytes: number;
  maxRatio: number;
}

/** Why unpacking `chosen` from an archive of `archiveSize` bytes is refused, or null. */
export function bombReason(chosen: PlannedEntry[], archiveSize: number, limits: ArchiveLimits): string | null {
  if (chosen.length > limits.maxEntries) return `The archive holds more than ${limits.maxEntries} entries, more than Haul unpacks at once.`;
  const total = chosen.reduce((n, e) => n + e.size, 0);
  if (total > limits.maxBytes) return `The entries unpack to ${total} bytes, more than the ${limits.maxBytes} Haul unpacks at once.`;
  // Small archives get some slack: a few kilobytes of text compress far better than the ratio suggests.
  if (total > Math.max(archiveSize, 1) * limits.maxRatio && total > 1024 * 1024) {
    return `The entries unpack to more than ${limits.maxRatio} times the archive's size: Haul does not unpack archives built to fill disks.`;
  }
  return null;
}
