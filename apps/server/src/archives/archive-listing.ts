/**
 * Reads `7zz l -slt` (one `Key = value` line per property, a blank line between entries) line by line as it streams,
 * so a listing of many entries is never held as text, and stops at the entry limit.
 */
import type { Readable } from 'node:stream';
import { decodeEntryName } from './entry-names.js';

/** One entry as 7-Zip lists it. */
export interface RawEntry {
  /** The path as a person reads it (a zip's non-UTF-8 name decoded with the encoding asked for). */
  path: string;
  /** What 7zz is asked for to extract it: the path itself, or for a name that is not UTF-8 its stored bytes in hex. */
  selector: string;
  /** `selector` is the stored bytes in hex, handed to 7zz in a list file. */
  rawName: boolean;
  /** The name's bytes as stored. */
  raw: Buffer;
  folder: boolean;
  size: number;
  /** Epoch ms, or null when the archive does not say. */
  modified: number | null;
  encrypted: boolean;
  /** A symbolic or hard link (tar, zip with Unix modes, RAR). */
  link: boolean;
}

export interface RawListing {
  /** The format 7-Zip recognised (zip, 7z, Rar5, tar, gzip, …). */
  type: string;
  /** Bytes of the archive as 7-Zip measured it. */
  physicalSize: number;
  entries: RawEntry[];
  /** What 7zz printed under "ERRORS:" about the archive itself (a listing's only word on why it failed). */
  errors: string[];
}

/** Thrown when the archive holds more entries than `maxEntries`. */
export class TooManyEntries extends Error {}

/** "2026-11-24 08:01:56.1234567" in UTC (7zz runs with TZ=UTC) → epoch ms. */
function parseDate(v: string): number | null {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?$/.exec(v.trim());
  if (!m) return null;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms);
}

function toEntry(p: Map<string, string>, encoding: string): RawEntry {
  const attributes = p.get('Attributes') ?? '';
  const mode = p.get('Mode') ?? '';
  // A Unix mode after the Windows letters ("A lrwxrwxrwx"), or tar's Mode column.
  const unixMode = /(?:^|\s)([-dlcbps][-rwxsStT]{9})$/.exec(attributes)?.[1] ?? mode;
  const folder = p.get('Folder') === '+' || attributes.startsWith('D') || unixMode.startsWith('d');
  // Read as latin1 (one char a byte), so the stored bytes come back exactly.
  const raw = Buffer.from(p.get('Path') ?? '', 'latin1');
  const decoded = decodeEntryName(raw, encoding);
  return {
    path: decoded.name,
    selector: decoded.utf8 ? decoded.name : raw.toString('hex'),
    rawName: !decoded.utf8,
    raw,
    folder,
    size: Number(p.get('Size') || 0) || 0,
    modified: parseDate(p.get('Modified') ?? ''),
    encrypted: p.get('Encrypted') === '+',
    link: !!p.get('Symbolic Link') || !!p.get('Hard Link') || unixMode.startsWith('l') || /\bSymLink\b/.test(p.get('Characteristics') ?? ''),
  };
}

/**
 * The lines of a stream, split at line feeds only: a name may hold a carriage return, which 7zz prints as it is (Node's
 * readline would end the line there, and the name would be asked for wrongly).
 */
async function* lines(stdout: Readable): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stdout as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

/** Parses a listing from 7zz's standard output, stopping (and throwing TooManyEntries) past `maxEntries`. */
export async function parseListing(stdout: Readable, maxEntries: number, encoding = ''): Promise<RawListing> {
  stdout.setEncoding('latin1');
  const listing: RawListing = { type: '', physicalSize: 0, entries: [], errors: [] };
  let inEntries = false;
  let inErrors = false;
  let current = new Map<string, string>();
  let lastKey = '';
  const flush = () => {
    if (current.has('Path')) {
      if (listing.entries.length >= maxEntries) throw new TooManyEntries(`The archive holds more than ${maxEntries} entries.`);
      listing.entries.push(toEntry(current, encoding));
    }
    current = new Map();
    lastKey = '';
  };
  try {
    for await (const line of lines(stdout)) {
      if (!inEntries) {
        if (line === 'ERRORS:') inErrors = true;
        else if (inErrors && line && !line.includes(' = ') && listing.errors.length < 20) listing.errors.push(line);
        else inErrors = false;
        if (line === '----------') inEntries = true;
        else if (line.startsWith('Type = ') && !listing.type) listing.type = line.slice(7).trim();
        else if (line.startsWith('Physical Size = ') && !listing.physicalSize) listing.physicalSize = Number(line.slice(16)) || 0;
        continue;
      }
      if (line === '') {
        // A blank line inside a name would split it: only a Path-less block is no entry.
        if (current.size) flush();
        continue;
      }
      // dotAll: a value (a name) may hold a carriage return.
      const m = /^([A-Za-z][A-Za-z ]*?) = ?(.*)$/s.exec(line);
      if (m && !(m[1] === 'Path' && current.has('Path'))) {
        current.set(m[1]!, m[2]!);
        lastKey = m[1]!;
      } else if (lastKey === 'Path') {
        // A name holding a line break: kept, so the name check refuses it rather than a wrong name being used.
        current.set('Path', `${current.get('Path')}\n${line}`);
      }
    }
    flush();
  } finally {
    // Left early (the entry limit): the stream is let go of, and the caller kills the run.
    stdout.destroy();
  }
  return listing;
}
