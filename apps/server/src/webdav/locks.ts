/**
 * WebDAV write locks (RFC 4918 §6–7), kept in the database so every process of a site sees the same ones, and the
 * If header (§10.4). A lock names a path, not a file: a lock on an unmapped path made an empty file there, a MOVE
 * leaves the locks of its source behind (they are dropped). Every check reads only unexpired locks, so an expired one
 * never blocks a write; the rows are swept at the account's next LOCK and by the periodic jobs.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { DavLocksTable } from '../db/schema-webdav.js';
import { HttpError } from '../http/errors.js';
import { parseDavPath, within } from './paths.js';

export type Lock = DavLocksTable;

/** The longest a lock lasts without a refresh, whatever the client asks; also what "Infinite" gets. */
export const MAX_TIMEOUT_S = 7 * 86_400;
const DEFAULT_TIMEOUT_S = 3600;

/** A WebDAV failure with its status and, where RFC 4918 names one, the precondition element (in DAV:). */
export class DavError extends Error {
  constructor(
    readonly status: number,
    readonly condition: string | null = null,
    message = '',
  ) {
    super(message || `WebDAV ${status}${condition ? ` ${condition}` : ''}`);
  }
}

/** The account's live locks (a read only: expired ones are swept when the account next locks something). */
export function liveLocks(db: Db, userId: string, now: number): Promise<Lock[]> {
  return db.selectFrom('dav_locks').selectAll().where('user_id', '=', userId).where('expires_at', '>', now).execute();
}

const parentKey = (key: string) => key.slice(0, Math.max(0, key.lastIndexOf('/')));

/** Whether lock `l` holds the resource at `key` itself (on it, or depth infinity on a folder above it). */
export const covers = (l: Lock, key: string) => l.path === key || (l.depth === 'infinity' && within(key, l.path));

/** What a write touches: the resource, and maybe everything below it and the membership of its folder. */
export interface WriteTarget {
  key: string;
  /** Members below are removed or replaced too (DELETE, MOVE's source, an overwritten destination). */
  deep?: boolean;
  /** A member is added to or removed from the folder above (a depth-0 lock there protects its membership). */
  membership?: boolean;
}

/** Throws 423 when a lock applying to any target was not submitted in the If header. */
export function requireTokens(locks: Lock[], submitted: Set<string>, targets: WriteTarget[]): void {
  for (const t of targets) {
    for (const l of locks) {
      const applies = covers(l, t.key) || (t.deep && within(l.path, t.key)) || (t.membership && t.key !== '' && l.path === parentKey(t.key));
      if (applies && !submitted.has(l.token)) throw new DavError(423, 'lock-token-submitted');
    }
  }
}

/** Throws 423 when a new lock at `key` would conflict with a live one (either exclusive, their scopes overlapping). */
export function refuseConflicts(locks: Lock[], key: string, depth: string, scope: string): void {
  for (const l of locks) {
    const overlaps = covers(l, key) || (depth === 'infinity' && within(l.path, key));
    if (overlaps && (l.scope === 'exclusive' || scope === 'exclusive')) throw new DavError(423, 'no-conflicting-lock');
  }
}

/** Seconds a Timeout header asks for ("Second-600, Infinite"), within our bounds. */
export function timeoutOf(header: string | undefined): number {
  for (const part of (header ?? '').split(',').map((s) => s.trim())) {
    if (/^infinite$/i.test(part)) return MAX_TIMEOUT_S;
    const m = /^second-(\d{1,12})$/i.exec(part);
    if (m) return Math.max(1, Math.min(MAX_TIMEOUT_S, Number(m[1])));
  }
  return DEFAULT_TIMEOUT_S;
}

export async function insertLock(db: Db, userId: string, input: { key: string; depth: string; scope: string; owner: string; timeoutS: number }, now: number): Promise<Lock> {
  const lock: Lock = {
    token: `urn:uuid:${randomUUID()}`,
    user_id: userId,
    path: input.key,
    depth: input.depth,
    scope: input.scope,
    owner: input.owner,
    timeout_s: input.timeoutS,
    expires_at: now + input.timeoutS * 1000,
    created_at: now,
  };
  await db.deleteFrom('dav_locks').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  await db.insertInto('dav_locks').values(lock).execute();
  return lock;
}

/**
 * Deletes every expired lock, of every account (the periodic jobs). The condition is in the DELETE itself, so processes
 * sweeping at once, or a refresh racing the sweep, never remove a lock that is still live. Returns how many went.
 */
export async function sweepExpiredLocks(db: Db, now: number): Promise<number> {
  const r = await db.deleteFrom('dav_locks').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Drops the locks at `key` and below it (the resource was deleted or moved away). */
export async function dropLocksWithin(db: Db, userId: string, key: string): Promise<void> {
  const locks = await db.selectFrom('dav_locks').select(['token', 'path']).where('user_id', '=', userId).execute();
  const gone = locks.filter((l) => within(l.path, key)).map((l) => l.token);
  if (gone.length) await db.deleteFrom('dav_locks').where('user_id', '=', userId).where('token', 'in', gone).execute();
}

// ---- If header (RFC 4918 §10.4) ----

export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}
export interface IfList {
  /** The tagged resource's path key, or null for the request's own resource. */
  resource: string | null;
  conditions: IfCondition[];
}

const badIf = () => new HttpError(400, 'invalid_argument', 'The If header is not valid.');

/** Parses an If header into its lists; throws 400 on anything else. */
export function parseIf(header: string | undefined): IfList[] {
  if (!header) return [];
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  const s = header;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const until = (end: string) => {
    const j = s.indexOf(end, i);
    if (j < 0) throw badIf();
    const v = s.slice(i, j);
    i = j + 1;
    return v;
  };
  for (skip(); i < s.length; skip()) {
    if (s[i] === '<') {
      i++;
      const url = until('>');
      try {
        tag = parseDavPath(/^[a-z][a-z0-9+.-]*:/i.test(url) ? new URL(url).pathname : url).key;
      } catch {
        // A tag naming something outside /dav/ matches nothing here.
        tag = '\u0000';
      }
      continue;
    }
    if (s[i] !== '(') throw badIf();
    i++;
    const conditions: IfCondition[] = [];
    for (skip(); s[i] !== ')'; skip()) {
      if (i >= s.length) throw badIf();
      let not = false;
      if (/^not\b/i.test(s.slice(i, i + 4)) && /\s|<|\[/.test(s[i + 3] ?? '')) {
        not = true;
        i += 3;
        skip();
      }
      if (s[i] === '<') {
        i++;
        conditions.push({ not, token: until('>').trim() });
      } else if (s[i] === '[') {
        i++;
        conditions.push({ not, etag: until(']').trim().replace(/^W\//, '') });
      } else throw badIf();
    }
    i++;
    if (!conditions.length) throw badIf();
    lists.push({ resource: tag, conditions });
  }
  return lists;
}

/** Every state token named in the header: the lock tokens the request submits. */
export const submittedTokens = (lists: IfList[]) => new Set(lists.flatMap((l) => l.conditions.filter((c) => c.token).map((c) => c.token!)));

/**
 * Whether the If header holds: true when any list holds (or there is none). A token condition holds when a live lock
 * with that token covers the list's resource; an entity tag when it is the resource's current one.
 */
export async function ifHolds(lists: IfList[], requestKey: string, locks: Lock[], etagOf: (key: string) => Promise<string | null>): Promise<boolean> {
  if (!lists.length) return true;
  for (const list of lists) {
    const key = list.resource ?? requestKey;
    let holds = true;
    for (const c of list.conditions) {
      let v: boolean;
      if (c.token !== undefined) v = locks.some((l) => l.token === c.token && covers(l, key));
      else v = (await etagOf(key)) === c.etag;
      if (v === c.not) {
        holds = false;
        break;
      }
    }
    if (holds) return true;
  }
  return false;
}
